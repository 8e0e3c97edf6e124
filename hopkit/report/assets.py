"""The page's inline style and script: no network, no CDN. The script only toggles classes and
visibility of elements already on the page; it never writes markup from data."""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
.badge { border-radius: 3px; padding: 0 0.3rem; font-size: 0.8rem; background: #eee; }
.badge.pass, .badge.accept { background: #d4edda; } .badge.corrected, .badge.reject { background: #f8d7da; }
.badge.completed, .badge.search { background: #fff3cd; } .badge.duplicate, .badge.not-reached,
.badge.pruned, .badge.pruned-repetitive, .badge.skipped-budget { background: #e2e3e5; }
.pid { font-family: monospace; font-size: 0.85rem; } .pid.gold { background: #ffe9a8; font-weight: bold; }
.muted { color: #777; } .lm { color: #234; } .reader { color: #553; } .off-path { opacity: 0.6; }
.question.hidden { display: none; } .filters button.active { background: #333; color: #fff; }
.correct > td:first-child { border-left: 4px solid #2a2; } .wrong > td:first-child { border-left: 4px solid #c33; }
.errored > td:first-child { border-left: 4px solid #888; }
.tree ul { list-style: none; padding-left: 1.2rem; border-left: 1px dotted #bbb; }
.run-cell.correct { background: #f3fbf4; } .run-cell.wrong { background: #fdf3f4; }
.metric, .num, .cost { white-space: nowrap; } .metric { margin-right: 0.6rem; font-size: 0.85rem; }
.answer { font-weight: 600; } .cite { display: inline-block; margin-right: 0.4rem; }
.cite > summary { cursor: pointer; }
.para { max-width: 40rem; font-size: 0.85rem; background: #fafafa; padding: 0.3rem; }
.answer-steps li { margin: 0.2rem 0; } .before { text-decoration: line-through; color: #a33; } .after { color: #262; }
.badge.check-changed { background: #fde2c4; } .badge.check-kept { background: #e2e3e5; }
.trace:target, details.trace.linked { outline: 2px solid #4c72b0; }
#questions td:first-child, #questions th:first-child { min-width: 22rem; max-width: 30rem; }
"""

SCRIPT = """
(function () {
  var state = {status: 'all', form: 'all'};
  function apply() {
    document.querySelectorAll('tr.question').forEach(function (row) {
      var show = (state.status === 'all' || row.dataset.status === state.status) &&
                 (state.form === 'all' || row.dataset.form === state.form);
      row.classList.toggle('hidden', !show);
    });
    document.querySelectorAll('.filters button').forEach(function (button) {
      button.classList.toggle('active', state[button.dataset.kind] === button.dataset.value);
    });
    var shown = document.querySelectorAll('tr.question:not(.hidden)').length;
    document.getElementById('shown-count').textContent = String(shown);
  }
  document.querySelectorAll('.filters button').forEach(function (button) {
    button.addEventListener('click', function () { state[button.dataset.kind] = button.dataset.value; apply(); });
  });
  function openLinked() {  // a link to a trace opens it, and shows its row whatever the filters say
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (!target || target.tagName !== 'DETAILS') { return; }
    var row = target.closest('tr.question');
    if (row) { row.classList.remove('hidden'); }
    target.open = true;
    target.classList.add('linked');
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', openLinked);
  apply();
  openLinked();
})();
"""
