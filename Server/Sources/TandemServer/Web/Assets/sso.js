// The SSO page: the countdown, a new code when it runs out (desktop), and the device's state
// (shows Approve / Deny once a phone redeemed the code). No other script runs on the page.
(function () {
  "use strict";
  var section = document.getElementById("sso");
  if (!section) return;
  var base = "/sso/" + section.dataset.clientPath;
  var csrf = section.dataset.csrf;
  var seconds = document.getElementById("seconds");
  var decided = false;

  function show(id, text) {
    var element = document.getElementById(id);
    if (text !== undefined) element.textContent = text;
    element.hidden = false;
  }

  function renew() {
    return fetch(base + "/code", { method: "POST", headers: { "X-CSRF-Token": csrf }, credentials: "same-origin" })
      .then(function (response) { if (!response.ok) throw new Error("status " + response.status); return response.json(); })
      .then(function (code) {
        section.dataset.id = code.id;
        section.dataset.expires = String(code.expires_at_ms);
        document.getElementById("decision-id").value = code.id;
        var figure = document.getElementById("qr");
        if (figure) { figure.innerHTML = code.svg; figure.dataset.link = code.link; }
        var next = document.getElementById("next");
        if (next) next.href = code.link;
      });
  }

  function tick() {
    if (decided) return;
    var left = Math.max(0, Math.round((Number(section.dataset.expires) - Date.now()) / 1000));
    seconds.textContent = String(left);
    if (left === 0 && section.dataset.renewing !== "1" && document.getElementById("decision").hidden) {
      section.dataset.renewing = "1";
      renew().catch(function () { show("done", "The code could not be renewed. Reload the page."); })
        .then(function () { section.dataset.renewing = ""; });
    }
  }

  // What the server observed of the claiming device (all set as text, never as markup).
  function describe(status) {
    document.getElementById("device").textContent = status.device || "A device";
    var network = "no address";
    if (status.address) {
      network = status.address + (status.same_network ? " — the same network as this browser" : " — not this browser's network");
    }
    document.getElementById("device-network").textContent = network;
    document.getElementById("device-agent").textContent = status.user_agent || "not given";
    if (status.claimed_at_ms) document.getElementById("device-time").textContent = new Date(status.claimed_at_ms).toLocaleTimeString();
  }

  function poll() {
    if (decided) return;
    fetch(base + "/status/" + encodeURIComponent(section.dataset.id), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (status) {
        if (!status) return;
        if (status.state === "claimed") { show("decision"); describe(status); }
        if (status.state === "cancelled") {
          decided = true; document.getElementById("decision").hidden = true;
          show("done", "Two devices tried this code, so nobody was signed in. If one of them was not yours, someone else saw the code. Reload the page to start again.");
        }
        if (status.state === "redeemed") { decided = true; document.getElementById("decision").hidden = true; show("done", "Signed in on the device."); }
        if (status.state === "denied") { decided = true; document.getElementById("decision").hidden = true; show("done", "Denied: the device was not signed in."); }
      })
      .catch(function () {});
  }

  tick();
  setInterval(tick, 1000);
  setInterval(poll, 2000);
})();
