/* door.js: the lecture's list of names narrows as a student types theirs. */
const field = document.getElementById('door-filter');
const people = Array.from(document.querySelectorAll('#door-people li'));
const plain = (text) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
if (field) field.addEventListener('input', () => {
  const wanted = plain(field.value);
  for (const person of people) person.hidden = wanted !== '' && !plain(person.dataset.name).includes(wanted);
});
