/* Hive: a class tournament's projector. halls.js draws it (screen.js loads it), board.js the boards. */
(function () { const el = document.createElement('script'); el.src = '/games/hive/screen.js'; document.head.appendChild(el); }());
