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

/* The QR code as large as the screen allows: from its size now, two hundredths of the
 * height at a time, between the strip's size and a third of the screen (a bounded
 * search), as large as keeps nothing scrolling either way, the strip's words within its
 * side (a long hall name beside it) and the hall's screen's type at the back row's size
 * (a screen that had to go under it marks itself `data-below-floor`). Each step waits two
 * frames, so that the hall's screen has fitted itself to the room left; a message that
 * changes nothing leaves the code as it is. A newer search stops an older one. */
const LEAST = 14, MOST = 33;
let growing = 0;
let size = null;                 // the QR code's height now, in hundredths of the screen's
const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
async function grow() {
  const mine = ++growing;
  const page = document.documentElement;
  const fits = () => page.scrollHeight <= innerHeight && page.scrollWidth <= innerWidth
    && Array.from(document.querySelectorAll('main, .screen-head'))
      .every((el) => el.scrollWidth <= el.clientWidth + 1)
    && !document.querySelector('[data-below-floor]');
  const set = async (vh) => {
    size = vh;
    if (vh === null) page.style.removeProperty('--door-qr');
    else page.style.setProperty('--door-qr', vh + 'vh');
    await frame();
    await frame();
    return mine === growing;
  };
  if (!await set(size === null ? LEAST : size)) return;
  if (fits()) {
    while (size < MOST) {
      const was = size;
      if (!await set(size + 2)) return;
      if (!fits()) { await set(was); return; }
    }
  } else {
    while (size !== null && !fits()) {
      if (!await set(size - 2 >= LEAST ? size - 2 : null)) return;
    }
  }
}

window.addEventListener('hall-message', (event) => {
  const seqs = Object.values((event.detail && event.detail.seqs) || {});
  const open = seqs.length > 0 && seqs.every((seq) => seq === 0);
  document.body.classList.toggle('door-open', open);
  // After the hall's own screen has drawn this message.
  if (open) requestAnimationFrame(grow);
  else {
    growing += 1;
    size = null;
    document.documentElement.style.removeProperty('--door-qr');
  }
});

/* A single game's projector (no hall): its own code shows until the game's first action,
 * then gives the room back to the game. */
window.addEventListener('game-state', (event) => {
  document.body.classList.toggle('door-closed', (event.detail && event.detail.seq) > 0);
});
