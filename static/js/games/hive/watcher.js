/* Hive: the projector of one game. screen.js draws it (the page's data names the screen), board.js the board. */
(function () { const el = document.createElement('script'); el.src = '/games/hive/screen.js'; document.head.appendChild(el); }());
