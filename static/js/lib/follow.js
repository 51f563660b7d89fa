/* follow.js: a student's page in a hall follows them. Every few seconds it asks where
 * the student plays now (/seat/where); when the hall has moved on (a new round, another
 * board) it goes back to /seat, which shows the new place; when the student's game is
 * over it says so and where to look next. Knows no game. */
const data = document.getElementById('follow');
const EVERY_MS = 4000;

if (data) {
  const follow = JSON.parse(data.textContent);
  const words = (document.getElementById('follow-words') || {}).textContent;
  const said = words ? JSON.parse(words) : {};
  let shown = false;
  const look = async () => {
    try {
      const response = await fetch(follow.where, { headers: { Accept: 'application/json' }, cache: 'no-store' });
      const here = await response.json();
      if (here.state === 'none' || here.round !== follow.round || (here.key || null) !== (follow.key || null)) {
        location.assign('/seat');
        return;
      }
      if (here.over && !shown && said.over) {
        shown = true;
        const note = document.createElement('p');
        note.className = 'notice follow-over';
        note.setAttribute('role', 'status');
        note.dataset.testid = 'follow-over';
        note.textContent = said.over;
        // In the page under its heading, not a toast: `.notice` alone is fixed at the
        // bottom and, kept there until the next round, it covered a phone's hands. (Set
        // here, not in app.css, which every team page loads: only these pages need it.)
        Object.assign(note.style, { position: 'static', transform: 'none', maxWidth: 'none',
          margin: '0 0 .75rem', boxShadow: 'none' });
        const main = document.querySelector('main');
        const heading = main && main.querySelector('h1, .screen-head');
        if (heading) heading.after(note);
        else if (main) main.prepend(note);
      }
    } catch (e) { /* offline a moment: ask again later */ }
    setTimeout(look, EVERY_MS);
  };
  setTimeout(look, EVERY_MS);
}
