/* join.js: the join code field shows ABCD-EFGH and accepts lower case, spaces and dashes.
 * A module that imports nothing: the join page loads neither the socket nor lit-html.
 * Test ids (in the template): join-code, join-submit, join-error. */
const input = document.getElementById('code');
const clean = (v) => v.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 8);
const show = (c) => (c.length > 4 ? c.slice(0, 4) + '-' + c.slice(4) : c);
input.addEventListener('input', () => {
  const shown = show(clean(input.value));
  if (shown !== input.value) input.value = shown;
});
document.getElementById('join-form').addEventListener('submit', () => {
  input.value = clean(input.value);      // the server gets the 8 characters alone
});
// Shown again from the back-forward cache (the back button after joining): ask the server,
// which sends a device already in a team on to its team's page.
window.addEventListener('pageshow', (e) => { if (e.persisted) window.location.reload(); });
