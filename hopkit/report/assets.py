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
  apply();
})();
"""
