/* La colmena: the table's shared tablet (its board). screen.js, an ES module, draws it (the page's data names the screen). */
import('/games/colmena/screen.js');
