/* waiting.js: a device that asked the teacher for a seat waits here. It asks the server
 * where its request stands every few seconds and reloads once the answer is in: the
 * server then shows the seat (accepted) or says it was refused. */
const page = JSON.parse(document.getElementById('page').textContent);
const EVERY_MS = 2000;

async function look() {
  try {
    const response = await fetch(page.state, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    const answer = await response.json();
    if (answer.state !== 'waiting' && !(answer.state === 'refused' && page.refused)) {
      location.reload();
      return;
    }
  } catch (e) { /* offline a moment: ask again later */ }
  setTimeout(look, EVERY_MS);
}
setTimeout(look, EVERY_MS);
