/* The results page: draws the charts and lets the GM step through the game turn by turn.
 * data-testid: review-turn, review-scores, print. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("results-data").textContent);
  var catalog = JSON.parse(document.getElementById("i18n").textContent);
  function t(key) { return catalog[key] || key; }
  var LANG = document.documentElement.lang || "es";
  function num(x) { return (x === 0 ? 0 : x).toLocaleString(LANG).replace(/^-/, "\u2212"); }
  var labels = {title: t("results.chart_scores"), round: t("results.round"), turn: t("results.turn"),
                types: {vf: t("type.vf"), quien: t("type.quien"), abierta: t("type.abierta")}};
  Charts.scoreLine(document.getElementById("chart-scores"), data.timeline, labels);
  Charts.cardBars(document.getElementById("chart-cards"), data.cards,
                  Object.assign({}, labels, {title: t("results.chart_cards")}));

  var slider = document.getElementById("review-turn");
  function showTurn() {
    var k = Number(slider.value);
    var turn = data.timeline.turns[k];
    document.getElementById("review-label").textContent = k === 0 ? t("results.start") : String(turn);
    var rows = data.timeline.teams.map(function (team) {
      return {team: team.team, name: team.name, score: team.scores[k]};
    }).sort(function (a, b) { return b.score - a.score || a.team - b.team; });
    var list = document.getElementById("review-scores");
    list.textContent = "";
    rows.forEach(function (row) {
      var item = document.createElement("li");
      item.textContent = row.team + " · " + row.name + ": " + num(row.score);
      list.appendChild(item);
    });
    document.querySelectorAll("tr[data-turn]").forEach(function (tr) {
      tr.classList.toggle("current", Number(tr.getAttribute("data-turn")) === turn);
    });
  }
  if (slider) { slider.addEventListener("input", showTurn); showTurn(); }
  var print = document.getElementById("print");
  if (print) print.addEventListener("click", function () { window.print(); });
})();
