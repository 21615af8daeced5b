// bgboard club pages: live boards over Server-Sent Events (or from the spectators' gallery,
// gallery.js, when the page names one), and the TV view's cycle.
// Hand-written, no build step. The server sends each changed board's card as escaped HTML.
(function () {
  "use strict";
  function live(root) {
    var source = new EventSource(root.getAttribute("data-live"));
    source.addEventListener("board", function (event) {
      var data = JSON.parse(event.data);
      var old = document.getElementById("board-" + data.board);
      if (!data.html) { if (old) old.remove(); return; }
      if (old) { old.outerHTML = data.html; return; }
      if (root.hasAttribute("data-append")) {
        var empty = document.getElementById("no-boards");
        if (empty) empty.remove();
        var after = null;   // keep the room in board order
        root.querySelectorAll("[id^=board-]").forEach(function (card) {
          if (!after && parseInt(card.id.slice(6), 10) > data.board) after = card;
        });
        if (after) after.insertAdjacentHTML("beforebegin", data.html);
        else root.insertAdjacentHTML("beforeend", data.html);
      }
    });
    window.bgboardLive = source;
  }
  function tv(seconds) {
    var pages = (document.body.getAttribute("data-tv-pages") || "/").split(" ");
    var here = pages.indexOf(location.pathname);
    var next = pages[(here + 1) % pages.length];
    setTimeout(function () { location.href = next + "?tv"; }, seconds * 1000);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-live]");
    if (root && root.hasAttribute("data-gallery") && window.mqtt && window.bgboardWatch) window.bgboardWatch(root);
    else if (root && window.EventSource) live(root);
    var seconds = parseInt(document.body.getAttribute("data-tv") || "0", 10);
    if (seconds > 0) tv(seconds);
  });
})();
