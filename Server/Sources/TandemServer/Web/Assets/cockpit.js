// The cockpit's one script: "Copy" buttons copy the text of the element they name.
(function () {
  "use strict";
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var source = document.getElementById(button.dataset.copy);
      if (!source || !navigator.clipboard) return;
      navigator.clipboard.writeText(source.textContent).then(function () { button.textContent = "Copied"; }, function () {});
    });
  });
})();
