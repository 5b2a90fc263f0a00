/**
 * The only script of the HTML reports, inlined and allowed by its hash in
 * the page's Content-Security-Policy. Conveniences only: the page is
 * complete without it (timeline collapse is a checkbox, explanations are
 * <details>, links are fragments). It never reads report data as code.
 */
export const SCRIPT = `
(function () {
  var d = document;
  d.documentElement.classList.add('js');
  var opened = [];
  addEventListener('beforeprint', function () {
    d.querySelectorAll('details:not([open])').forEach(function (e) { e.open = true; opened.push(e); });
  });
  addEventListener('afterprint', function () {
    opened.forEach(function (e) { e.open = false; });
    opened = [];
  });
  d.querySelectorAll('[data-open-all]').forEach(function (b) {
    b.addEventListener('click', function () {
      var open = b.getAttribute('data-open-all') === 'open';
      var scope = d.getElementById(b.getAttribute('data-scope') || '') || d;
      scope.querySelectorAll('details').forEach(function (e) { e.open = open; });
    });
  });
  function clear(t) { t.querySelectorAll('.col-hi').forEach(function (c) { c.classList.remove('col-hi'); }); }
  d.querySelectorAll('table.timeline').forEach(function (t) {
    t.addEventListener('mouseover', function (ev) {
      var c = ev.target && ev.target.closest ? ev.target.closest('td,th') : null;
      clear(t);
      if (!c || c.cellIndex < 1) return;
      for (var i = 0; i < t.rows.length; i++) {
        var x = t.rows[i].cells[c.cellIndex];
        if (x && t.rows[i].cells.length > 1) x.classList.add('col-hi');
      }
    });
    t.addEventListener('mouseleave', function () { clear(t); });
  });
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var e = id ? d.getElementById(id) : null;
    if (e && e.tagName === 'DETAILS') e.open = true;
  }
  addEventListener('hashchange', reveal);
  reveal();
})();
`;
