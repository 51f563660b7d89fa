/* Charts drawn in the page from data, as plain SVG: light enough for the projector.
 * Team colours are the colour-blind-safe Okabe–Ito palette, and never carry meaning
 * alone: every line ends with the team's number, lines have their own dash pattern,
 * and the legend names each team.
 *   Charts.scoreLine(element, timeline, labels)  each team's score after every turn,
 *                                                round boundaries marked
 *   Charts.cardBars(element, cards, labels)      cards each team holds by author and by type
 */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  // The Okabe–Ito hues, darkened where needed to a contrast of at least 3:1 on white
  // (issue 13: the yellow line was 1.3:1): lines, bars and swatches.
  var COLORS = ["#BC8200", "#4897C3", "#009E73", "#99912A", "#0072B2", "#D55E00"];
  var DASHES = ["", "8 4", "2 4", "10 3 2 3", "4 4", "12 6"];

  var LANG = document.documentElement.lang || "es";
  // A number as the page writes it; never "-0" (Math.ceil(-0.5) is -0).
  function num(x) { return typeof x === "number" ? (x === 0 ? 0 : x).toLocaleString(LANG).replace(/^-/, "\u2212") : String(x); }

  function el(tag, attrs, text) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function svg(width, height, title) {
    var root = el("svg", {viewBox: "0 0 " + width + " " + height, role: "img",
                          width: "100%", "class": "chart"});
    root.appendChild(el("title", {}, title));
    return root;
  }

  function scoreLine(target, timeline, labels) {
    var W = 960, H = 420, L = 56, R = 110, T = 20, B = 46;
    var turns = timeline.turns, teams = timeline.teams;
    var all = [0];
    teams.forEach(function (t) { all = all.concat(t.scores); });
    var lo = Math.min.apply(null, all), hi = Math.max.apply(null, all);
    if (hi === lo) hi = lo + 1;
    var n = Math.max(turns.length - 1, 1);
    function x(i) { return L + (W - L - R) * i / n; }
    function y(v) { return T + (H - T - B) * (hi - v) / (hi - lo); }
    var root = svg(W, H, labels.title);
    var step = Math.max(1, Math.ceil((hi - lo) / 8));
    for (var v = Math.ceil(lo); v <= hi; v += step) {
      root.appendChild(el("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#ddd"}));
      root.appendChild(el("text", {x: L - 8, y: y(v) + 5, "text-anchor": "end",
                                   "font-size": 16}, num(v)));
    }
    (timeline.rounds || []).forEach(function (r) {
      var i = turns.indexOf(r.turn) - 1;
      if (i < 0) i = 0;
      root.appendChild(el("line", {x1: x(i), x2: x(i), y1: T, y2: H - B, stroke: "#555",
                                   "stroke-dasharray": "4 4"}));
      root.appendChild(el("text", {x: x(i) + 4, y: T + 14, "font-size": 15, fill: "#333"},
                          labels.round + " " + r.round));
    });
    root.appendChild(el("text", {x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle",
                                 "font-size": 16}, labels.turn));
    var ends = [];
    teams.forEach(function (team, k) {
      var points = team.scores.map(function (s, i) { return x(i) + "," + y(s); }).join(" ");
      var line = el("polyline", {points: points, fill: "none", stroke: COLORS[k % 6],
                                 "stroke-width": 4, "stroke-dasharray": DASHES[k % 6]});
      line.appendChild(el("title", {}, team.team + " · " + team.name));
      root.appendChild(line);
      var last = team.scores[team.scores.length - 1];
      ends.push({y: y(last) + 6, text: team.team + " (" + num(last) + ")"});
    });
    // Teams that end level would print their labels on top of each other: spread them.
    ends.sort(function (a, b) { return a.y - b.y; });
    for (var i = 1; i < ends.length; i++) {
      if (ends[i].y - ends[i - 1].y < 20) ends[i].y = ends[i - 1].y + 20;
    }
    ends.forEach(function (end) {
      root.appendChild(el("text", {x: x(n) + 8, y: end.y, "font-size": 18, "font-weight": "bold"},
                          end.text));
    });
    target.textContent = "";
    target.appendChild(root);
    target.appendChild(legend(teams));
  }

  function legend(teams) {
    var list = document.createElement("ul");
    list.className = "chart-legend";
    teams.forEach(function (team, k) {
      var item = document.createElement("li");
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = COLORS[k % 6];
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(team.team + " · " + team.name));
      list.appendChild(item);
    });
    return list;
  }

  function cardBars(target, cards, labels) {
    var groups = cards.authors.map(function (a) { return {key: a, kind: "authors", label: a}; })
      .concat(cards.types.map(function (t) {
        return {key: t, kind: "types", label: labels.types[t] || t}; }));
    var teams = cards.teams;
    var W = 960, H = 360, L = 40, T = 20, B = 90;
    var max = 1;
    teams.forEach(function (t) { groups.forEach(function (g) {
      max = Math.max(max, t[g.kind][g.key] || 0); }); });
    var gw = (W - L) / Math.max(groups.length, 1), bw = Math.max(4, (gw - 10) / teams.length);
    var root = svg(W, H, labels.title);
    for (var v = 0; v <= max; v++) {
      var yy = T + (H - T - B) * (1 - v / max);
      root.appendChild(el("line", {x1: L, x2: W, y1: yy, y2: yy, stroke: "#eee"}));
      root.appendChild(el("text", {x: L - 6, y: yy + 5, "text-anchor": "end", "font-size": 14}, v));
    }
    groups.forEach(function (g, gi) {
      var gx = L + gi * gw + 5;
      teams.forEach(function (t, k) {
        var n = t[g.kind][g.key] || 0;
        if (!n) return;
        var h = (H - T - B) * n / max;
        var bar = el("rect", {x: gx + k * bw, y: H - B - h, width: bw - 1, height: h,
                              fill: COLORS[k % 6], stroke: "#222"});
        bar.appendChild(el("title", {}, t.team + " · " + t.name + ": " + n));
        root.appendChild(bar);
        if (bw >= 14) root.appendChild(el("text", {x: gx + k * bw + bw / 2, y: H - B - h - 4,
                                                   "text-anchor": "middle", "font-size": 12}, t.team));
      });
      var text = el("text", {x: gx + gw / 2, y: H - B + 18, "text-anchor": "end", "font-size": 14,
                             transform: "rotate(-35 " + (gx + gw / 2) + " " + (H - B + 18) + ")"},
                    g.label);
      root.appendChild(text);
    });
    target.textContent = "";
    target.appendChild(root);
    target.appendChild(legend(teams));
  }

  window.Charts = {scoreLine: scoreLine, cardBars: cardBars, COLORS: COLORS};
})();
