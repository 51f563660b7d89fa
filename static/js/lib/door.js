/* door.js: the lecture's door on a hall's projector: one code and its QR code for the
 * whole room, in a strip above the hall's own screen (which shows who sits where: the
 * hall rules' view). Drawn once from the page's data; knows no game. While no game of
 * the round has begun (every `seqs` of the hall's messages is 0: the class is coming
 * in), the QR code is large enough to scan from the back row; once play starts it
 * shrinks and leaves the room to the games. */
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

window.addEventListener('hall-message', (event) => {
  const seqs = Object.values((event.detail && event.detail.seqs) || {});
  document.body.classList.toggle('door-open', seqs.length > 0 && seqs.every((seq) => seq === 0));
});
