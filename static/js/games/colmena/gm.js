/* La colmena: the teacher's console of one table. screen.js, an ES module, draws it (the page's data names the screen). */
import('/games/colmena/screen.js');
