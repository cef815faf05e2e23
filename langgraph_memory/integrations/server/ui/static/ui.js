// langgraph-memory inspector: times in the reader's zone, the budget slider's value.
// No network, no eval, no inline handlers (the pages' CSP allows this file only).
(function () {
  "use strict";
  function localTimes() {
    var fmt;
    try {
      fmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "2-digit",
        day: "2-digit", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    } catch (e) { return; }
    var nodes = document.querySelectorAll("time[datetime]:not([data-fixed])");
    for (var i = 0; i < nodes.length; i++) {
      var d = new Date(nodes[i].getAttribute("datetime"));
      if (!isNaN(d.getTime())) {
        nodes[i].title = nodes[i].textContent;
        nodes[i].textContent = fmt.format(d);
      }
    }
  }
  function sliders() {
    var ranges = document.querySelectorAll("input[type=range][data-output]");
    for (var i = 0; i < ranges.length; i++) {
      (function (r) {
        var out = document.getElementById(r.getAttribute("data-output"));
        if (!out) { return; }
        var show = function () { out.textContent = r.value; };
        r.addEventListener("input", show);
        show();
      })(ranges[i]);
    }
  }
  function ready() { localTimes(); sliders(); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else { ready(); }
})();
