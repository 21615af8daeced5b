// bgboard club pages: the live boards from the spectators' gallery (MQTT over WebSocket,
// through the vendored MQTT.js), drawn here from the director's checked, compact states
// (bgboard.club.web.live_wire). Hand-written, no build step. Everything from outside goes in
// as text nodes and attribute values, never as HTML; the picture mirrors bgboard.boardsvg
// (tests/club/test_gallery_browser.py compares the two in Chromium).
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  // the geometry of bgboard.boardsvg
  var STACK = 5, BAR_STACK = 3, D = 16, W = 18, CUBE_W = 24, BORDER = 6, BAR_W = 22, TRAY_W = 26;
  var HALF_H = STACK * D, MID_H = 24, LEFT = CUBE_W + BORDER, BAR_X = LEFT + 6 * W, RIGHT = BAR_X + BAR_W;
  var TRAY_X = RIGHT + 6 * W + BORDER, WIDTH = TRAY_X + TRAY_W + BORDER, TOP = BORDER, MID_Y = TOP + HALF_H;
  var BOTTOM = MID_Y + MID_H + HALF_H, HEIGHT = BOTTOM + BORDER;
  var FILL = ["#f6f2e6", "#2a2622"], INK = ["#2a2622", "#f6f2e6"], POINT_FILL = ["#b5835a", "#6e4326"];
  var PIPS = {1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]]};

  // the page's words (its gallery-words JSON, in the page's language: live_wire.page_words)
  var WORDS = (function () {
    var node = document.getElementById("gallery-words");
    try { return node ? JSON.parse(node.textContent) : null; } catch (e) { return null; }
  })();
  function fmt(text, params) {   // Python's %(name)s, as the catalogues write them
    return String(text).replace(/%\((\w+)\)s|%%/g, function (all, key) { return key ? String(params[key]) : "%"; });
  }
  function said(key, params, english) { return WORDS && WORDS[key] ? fmt(WORDS[key], params || {}) : english; }
  function nameOf(v, p) {
    var unnamed = Array.isArray(v.unnamed) && v.unnamed[p];
    return unnamed && WORDS ? WORDS.unnamed[p] : (v.players || [])[p];
  }
  function titleOf(v) {
    if (!WORDS) return v.title;
    var score = Array.isArray(v.score) ? " " + v.score[0] + "-" + v.score[1] : "";
    return fmt(WORDS.title, {number: v.board, white: nameOf(v, 0), black: nameOf(v, 1)}) + score;
  }
  function phaseOf(v) {
    var key = v.phase_key;
    if (!WORDS || typeof key !== "string") return v.phase || "";
    if (WORDS.player_phases[key] && typeof v.turn === "number") return fmt(WORDS.player_phases[key], {name: nameOf(v, v.turn)});
    return WORDS.phases[key] || "";
  }
  function el(name, attrs, text, ns) {
    var node = ns ? document.createElementNS(ns, name) : document.createElement(name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, String(attrs[key])); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function s(name, attrs, text) { return el(name, attrs, text, SVG); }
  function columnX(point) {
    var column = point <= 12 ? 12 - point : point - 13;
    return LEFT + column * W + (column >= 6 ? BAR_W : 0);
  }
  function checker(svg, cx, cy, player, label) {
    svg.appendChild(s("circle", {cx: cx, cy: cy, r: D / 2 - 0.5, fill: FILL[player], stroke: INK[0], "stroke-width": 1}));
    if (label !== null) svg.appendChild(s("text", {x: cx, y: cy + 3.5, "font-size": 10, "text-anchor": "middle",
      "font-weight": "bold", fill: INK[player]}, label));
  }
  function stack(svg, cx, start, step, count, player, most) {
    var shown = Math.min(count, most);
    for (var i = 0; i < shown; i++) checker(svg, cx, start + i * step, player, count > most && i === shown - 1 ? String(count) : null);
  }
  function sidesOf(hex) {
    if (!Array.isArray(hex) || hex.length !== 2) return null;
    var out = hex.map(function (text) {
      if (typeof text !== "string" || !/^[0-9a-f]{26}$/.test(text)) return null;
      return text.split("").map(function (c) { return parseInt(c, 16); });
    });
    return out[0] && out[1] ? out : null;
  }
  function picture(v) {
    var title = titleOf(v);
    var svg = s("svg", {viewBox: "0 0 " + WIDTH + " " + HEIGHT, "class": "board-svg", role: "img", "aria-label": title});
    svg.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns", SVG);
    svg.appendChild(s("title", {}, title));
    svg.appendChild(s("rect", {x: CUBE_W, y: 0, width: WIDTH - CUBE_W, height: HEIGHT, rx: 4, fill: "#5a3a20"}));
    svg.appendChild(s("rect", {x: LEFT, y: TOP, width: 6 * W, height: BOTTOM - TOP, fill: "#e9dcc0"}));
    svg.appendChild(s("rect", {x: RIGHT, y: TOP, width: 6 * W, height: BOTTOM - TOP, fill: "#e9dcc0"}));
    svg.appendChild(s("rect", {x: TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP, fill: "#3f2816"}));
    for (var point = 1; point <= 24; point++) {
      var x = columnX(point);
      var d = point <= 12 ? "M" + x + " " + BOTTOM + " L" + (x + W / 2) + " " + (BOTTOM - HALF_H + 4) + " L" + (x + W) + " " + BOTTOM + " Z"
                          : "M" + x + " " + TOP + " L" + (x + W / 2) + " " + (TOP + HALF_H - 4) + " L" + (x + W) + " " + TOP + " Z";
      svg.appendChild(s("path", {d: d, fill: POINT_FILL[point % 2]}));
    }
    var sides = sidesOf(v.sides);
    if (sides) {
      var white = sides[0], black = sides[1];
      for (point = 1; point <= 24; point++) {
        var cx = columnX(point) + W / 2;
        [[0, white[point]], [1, black[25 - point]]].forEach(function (pc) {
          if (!pc[1]) return;
          if (point <= 12) stack(svg, cx, BOTTOM - D / 2, -D, pc[1], pc[0], STACK);
          else stack(svg, cx, TOP + D / 2, D, pc[1], pc[0], STACK);
        });
      }
      var barX = BAR_X + BAR_W / 2;
      if (white[25]) stack(svg, barX, MID_Y - D / 2, -D, white[25], 0, BAR_STACK);
      if (black[25]) stack(svg, barX, MID_Y + MID_H + D / 2, D, black[25], 1, BAR_STACK);
      [[0, white[0]], [1, black[0]]].forEach(function (pc) {
        var player = pc[0], count = pc[1];
        for (var i = 0; i < count; i++) {
          svg.appendChild(s("rect", {x: TRAY_X + 3, y: player === 0 ? BOTTOM - 5 * (i + 1) : TOP + 5 * i, width: TRAY_W - 6,
            height: 4, fill: FILL[player], stroke: "#b89b7a", "stroke-width": 0.6}));
        }
        if (count) svg.appendChild(s("text", {x: TRAY_X + TRAY_W / 2, y: player === 0 ? BOTTOM - 5 * count - 4 : TOP + 5 * count + 10,
          "font-size": 10, "text-anchor": "middle", fill: FILL[0]}, count));
      });
    }
    var owner = v.owner === 0 || v.owner === 1 ? v.owner : null;
    var cube = typeof v.cube === "number" ? v.cube : 1;
    var size = 20, cubeX = (CUBE_W - size) / 2;
    var cubeY = owner === null ? MID_Y + MID_H / 2 - size / 2 : owner === 0 ? BOTTOM - size : TOP;
    var value = owner === null && cube === 1 ? 64 : cube;
    var g = s("g", {"class": "cube"});
    g.appendChild(s("rect", {x: cubeX, y: cubeY, width: size, height: size, rx: 3, fill: "#fffdf6", stroke: INK[0]}));
    g.appendChild(s("text", {x: cubeX + size / 2, y: cubeY + size / 2 + 4, "font-size": value < 100 ? 11 : 8,
      "text-anchor": "middle", "font-weight": "bold", fill: INK[0]}, value));
    svg.appendChild(g);
    var turn = v.turn === 0 || v.turn === 1 ? v.turn : null;
    if (Array.isArray(v.dice) && turn !== null) {
      var die = 16, x0 = (turn === 0 ? RIGHT : LEFT) + 3 * W - die - 3, y = MID_Y + (MID_H - die) / 2;
      var dice = s("g", {"class": "dice"});
      v.dice.slice(0, 2).forEach(function (n, i) {
        var dx = x0 + i * (die + 6);
        dice.appendChild(s("rect", {x: dx, y: y, width: die, height: die, rx: 3, fill: FILL[turn], stroke: INK[0]}));
        (PIPS[n] || []).forEach(function (p) {
          dice.appendChild(s("circle", {cx: dx + p[0] * 4, cy: y + p[1] * 4, r: 1.6, fill: INK[turn]}));
        });
      });
      svg.appendChild(dice);
    }
    return svg;
  }
  function players(v) {
    var table = el("table", {"class": "players"});
    var body = table.appendChild(el("tbody"));   // as the HTML parser makes it
    [0, 1].forEach(function (p) {
      var row = el("tr", {"class": v.turn === p ? "on-roll" : ""});
      var colour = p === 0 ? "white" : "black";
      row.appendChild(el("td", {"class": "colour " + colour, title: WORDS ? WORDS.colours[p] : colour}));
      row.appendChild(el("td", {"class": "name"}, nameOf(v, p)));
      row.appendChild(el("td", {"class": "score", "data-player": p}, Array.isArray(v.score) ? v.score[p] : "-"));
      row.appendChild(el("td", {"class": "clock" + (v.running === p ? " running" : "")}, Array.isArray(v.clocks) ? v.clocks[p] : ""));
      body.appendChild(row);
    });
    return table;
  }
  function lengthText(v) {
    return v.length ? said("length", {length: v.length}, v.length + "-point match")
      : v.length === 0 ? said("money", {}, "money") : "";
  }
  function badges(parent, v) {
    if (!v.online) parent.appendChild(el("span", {"class": "badge off"}, said("offline", {}, "offline")));
    if (v.crawford) parent.appendChild(el("span", {"class": "badge"}, "Crawford"));
  }
  function tail(node, v) {
    node.appendChild(players(v));
    node.appendChild(el("p", {"class": "phase"}, phaseOf(v) + (v.event ? " \u00b7 " + v.event : "")));
    if (v.problem) node.appendChild(el("p", {"class": "problem"}, v.problem));
    return node;
  }
  // one board's card in the room (card.html), or the board large (large.html)
  function card(v) {
    var node = el("article", {"class": "card" + (v.online ? "" : " offline"), id: "board-" + v.board});
    var header = el("header");
    header.appendChild(el("a", {href: "/board/" + v.board}, said("board", {number: v.board}, "Board " + v.board)));
    badges(header, v);
    header.appendChild(el("span", {"class": "length"}, lengthText(v)));
    node.appendChild(header);
    node.appendChild(picture(v));
    return tail(node, v);
  }
  function large(v, hasClub) {
    var node = el("section", {"class": "large" + (v.online ? "" : " offline"), id: "board-" + v.board});
    var h1 = el("h1", {}, said("board", {number: v.board}, "Board " + v.board));
    badges(h1, v);
    node.appendChild(h1);
    var meta = el("p", {"class": "meta"}, lengthText(v) + (v.event ? " \u00b7 " + v.event : ""));
    if (v.match && hasClub) {
      meta.appendChild(document.createTextNode(" \u00b7 "));
      meta.appendChild(el("a", {href: "/match/" + v.match}, said("match", {number: v.match}, "match " + v.match)));
    }
    node.appendChild(meta);
    node.appendChild(picture(v));
    return tail(node, v);
  }
  function place(root, v, hasClub) {
    if (typeof v !== "object" || v === null || typeof v.board !== "number") return;
    var old = document.getElementById("board-" + v.board);
    if (v.gone) { if (old) old.remove(); return; }
    var fresh = root.hasAttribute("data-append") ? card(v) : large(v, hasClub);
    if (old) { old.replaceWith(fresh); return; }
    if (!root.hasAttribute("data-append")) return;
    var empty = document.getElementById("no-boards");
    if (empty) empty.remove();
    var after = null;   // keep the room in board order
    root.querySelectorAll("[id^=board-]").forEach(function (other) {
      if (!after && parseInt(other.id.slice(6), 10) > v.board) after = other;
    });
    root.insertBefore(fresh, after);
  }
  function inflated(payload) {
    var stream = new Blob([payload]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }
  function watch(root) {
    var base = "bgboard/" + root.getAttribute("data-club") + "/live/";
    var one = root.getAttribute("data-board");
    var hasClub = root.hasAttribute("data-has-club");
    var state = {received: 0, connected: false, fetched: 0};
    var known = {};      // board -> its whole newest state, as drawn
    var fetching = {};   // board -> true while its retained message is asked for
    var client = window.mqtt.connect(root.getAttribute("data-gallery"), {
      protocolVersion: 4, clean: true, keepalive: 60, resubscribe: false,
      reconnectPeriod: 2000 + Math.floor(Math.random() * 3000)   // spread a room's reconnections
    });
    client.on("connect", function () {
      state.connected = true;
      if (one) { client.subscribe(base + "board/" + one, {qos: 0}, function () { state.watching = true; }); return; }
      // the changes from now on, then every board's newest (retained) once: the retained ones
      // come right after the subscription is granted, so it can be dropped then
      client.subscribe(base + "room", {qos: 0});
      client.subscribe(base + "board/+", {qos: 0}, function (err) {
        if (!err) client.unsubscribe(base + "board/+", function () { state.watching = true; });
      });
    });
    client.on("close", function () { state.connected = state.watching = false; });
    // a room entry as the board's whole state: itself when whole, the board's known state with
    // its changes when based on that (bgboard.club.web.live_wire.applied), else null
    function take(v) {
      if (typeof v !== "object" || v === null || typeof v.board !== "number") return null;
      if (typeof v.base !== "number") return v;
      var last = known[v.board];
      if (!last || last.version !== v.base) return null;
      var whole = {};
      Object.keys(last).forEach(function (k) { if (!(Array.isArray(v.drop) && v.drop.indexOf(k) >= 0)) whole[k] = last[k]; });
      Object.keys(v).forEach(function (k) { if (k !== "base" && k !== "drop") whole[k] = v[k]; });
      return whole;
    }
    function done(board) {   // its retained message asked for no longer
      if (fetching[board]) { delete fetching[board]; client.unsubscribe(base + "board/" + board); }
    }
    function draw(v) {
      done(v.board);
      if (v.gone) delete known[v.board]; else known[v.board] = v;
      place(root, v, hasClub);
    }
    // a change this page cannot apply (it joined between, or a message was lost): the board's
    // own retained message holds its whole newest state
    function fetch(board) {
      if (fetching[board] || one) return;
      fetching[board] = true;
      state.fetched += 1;
      client.subscribe(base + "board/" + board, {qos: 0});
    }
    // the room's messages come compressed (raw DEFLATE) and are inflated off the page's thread:
    // one queue keeps every message, room or board, drawn in the order the gallery sent them
    var drawn = Promise.resolve();
    client.on("message", function (topic, payload) {
      var room = topic === base + "room";
      var text = room ? inflated(payload) : Promise.resolve(new TextDecoder().decode(payload));
      drawn = drawn.then(function () { return text; }).then(function (json) {
        var data = JSON.parse(json);
        state.received += 1;
        if (!room) {
          if (typeof data !== "object" || data === null || typeof data.board !== "number") return;
          done(data.board);
          var had = known[data.board];
          if (!had || !(data.version <= had.version)) draw(data);   // never back to an older state
          return;
        }
        if (data && Array.isArray(data.boards)) data.boards.forEach(function (v) {
          var whole = take(v);
          if (whole) draw(whole); else if (v && typeof v.board === "number") fetch(v.board);
        });
      }).catch(function () {});   // a message that is not one of ours is dropped
    });
    state.client = client;
    window.bgboardGallery = state;
  }
  window.bgboardDraw = {card: card, large: large};
  window.bgboardWatch = watch;
})();
