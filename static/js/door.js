/* door.js: the lecture's list of names narrows as a student types theirs; a search that
 * matches nobody says so. */
const field = document.getElementById('door-filter');
const people = Array.from(document.querySelectorAll('#door-people li'));
const none = document.getElementById('door-none');
const plain = (text) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
if (field) field.addEventListener('input', () => {
  const wanted = plain(field.value);
  let shown = 0;
  for (const person of people) {
    person.hidden = wanted !== '' && !plain(person.dataset.name).includes(wanted);
    if (!person.hidden) shown += 1;
  }
  none.hidden = shown > 0;
});
