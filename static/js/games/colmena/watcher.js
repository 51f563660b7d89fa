/* La colmena: the projector of one table (the public view). screen.js, an ES module, draws it (the page's data names the screen). */
import('/games/colmena/screen.js');
