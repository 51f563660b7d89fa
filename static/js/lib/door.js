/* door.js: the lecture's door on a hall's projector: one code and its QR code for the
 * whole room, in a strip above the hall's own screen (which shows who sits where: the
 * hall rules' view). Drawn once from the page's data; knows no game. */
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
