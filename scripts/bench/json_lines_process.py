"""A child process whose standard output is JSON lines, read on a thread: what the benchmarks
that drive `tandem serve`, `tandem host run` and the APNs stand-in wait on."""

import json
import queue
import signal
import subprocess
import threading
import time


class Process:
    """A child whose JSON lines are read on a thread, each with the time it arrived."""

    def __init__(self, arguments, env, name, label):
        """Starts `arguments` with `env`; `name` says which child in errors, `label` which benchmark."""
        self.name = name
        self.label = label
        self.child = subprocess.Popen(arguments, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lines: "queue.Queue[tuple[float, dict]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.child.stdout:
            try:
                parsed = json.loads(line)
            except ValueError:
                parsed = {"text": line.strip()}
            self.lines.put((time.monotonic(), parsed if isinstance(parsed, dict) else {"text": line.strip()}))

    def wait_for(self, predicate, timeout=60):
        """The arrival time and the first line (from now on) that `predicate` accepts."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SystemExit(f"{self.label}: {self.name} printed nothing expected within {timeout} s")
            try:
                when, line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if predicate(line):
                return when, line

    def stop(self):
        """SIGTERM, then SIGKILL after 30 s."""
        if self.child.poll() is None:
            self.child.send_signal(signal.SIGTERM)
            try:
                self.child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.child.kill()
