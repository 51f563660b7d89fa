/* door.js: the lecture's door on a hall's projector: one code and its QR code for the
 * whole room, in a strip above the hall's own screen (which shows who sits where: the
 * hall rules' view). Drawn once from the page's data; knows no game. While no game of
 * the round has begun (every `seqs` of the hall's messages is 0: the class is coming
 * in), the QR code grows as large as the screen allows (to be scanned from the back
 * row); once play starts it shrinks and leaves the room to the games. */
import { html, render } from './dom.js';
import { W, readJSON } from './words.js';

const { t } = W;
const door = readJSON('door-data', null);
const box = document.getElementById('door');

if (door && box) {
  render(html`<figure class="door" data-testid="door"><img src=${door.qr} alt=${t('door.enter')} data-testid="door-qr">
    <figcaption><span class="door-enter">${t('door.enter')}</span>
      <strong class="code" data-testid="door-code">${door.code}</strong>
      <span class="door-url">${t('door.or_open')} <span data-testid="door-url">${door.url}</span></span></figcaption></figure>`, box);
}

/* The QR code as large as the screen allows without scrolling either way or pushing
 * the strip's words past its side (a long hall name beside it): from a third of the
 * screen's height down, two hundredths at a time (a bounded search), never below the
 * strip's size. */
function grow() {
  const page = document.documentElement;
  const fits = () => page.scrollHeight <= innerHeight && page.scrollWidth <= innerWidth
    && Array.from(document.querySelectorAll('main, .screen-head'))
      .every((el) => el.scrollWidth <= el.clientWidth + 1);
  for (let vh = 33; vh >= 14; vh -= 2) {
    page.style.setProperty('--door-qr', vh + 'vh');
    if (fits()) return;
  }
  page.style.removeProperty('--door-qr');
}

window.addEventListener('hall-message', (event) => {
  const seqs = Object.values((event.detail && event.detail.seqs) || {});
  const open = seqs.length > 0 && seqs.every((seq) => seq === 0);
  document.body.classList.toggle('door-open', open);
  // After the hall's own screen has drawn this message.
  if (open) requestAnimationFrame(grow);
  else document.documentElement.style.removeProperty('--door-qr');
});

/* A single game's projector (no hall): its own code shows until the game's first action,
 * then gives the room back to the game. */
window.addEventListener('game-state', (event) => {
  document.body.classList.toggle('door-closed', (event.detail && event.detail.seq) > 0);
});
