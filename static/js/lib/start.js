/* start.js: how every game's page starts its screen. The page names its screen's module
 * in this script's `data-screen` (and preloads it: <link rel="modulepreload">); each
 * screen module, one per audience under static/js/games/<kind>/, exports `start()`,
 * which draws the screen and keeps it live. */
const script = document.querySelector('script[data-screen]');
if (script) import(script.dataset.screen).then((screen) => screen.start());
