/* La colmena: a player's phone (its hand). screen.js, an ES module, draws it (the page's data names the screen). */
import('/games/colmena/screen.js');
