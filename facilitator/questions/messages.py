"""The texts of the bank checker and importer, in Spanish and English.

The readers and the ``facilitator questions`` commands take their words from
here, so both languages always exist. The package stays pure Python: this is
a plain dictionary, not the web interface's JSON catalogs.

    >>> message("es", "no_answer.mark")
    'sin respuesta esperada: la juzga el docente'
    >>> cli_language(None, {"LANG": "es_ES.UTF-8"}), cli_language(None, {"LANG": "C.UTF-8"})
    ('es', 'en')

Every message of the readers, the checker and the ``facilitator questions``
commands is here, in both languages (tests/questions/test_formatting.py checks
that both catalogs hold the same keys and placeholders). Spanish uses the
names Spanish Moodle gives its question types (Opción múltiple, Numérica,
Emparejamiento, Respuestas anidadas, Descripción, Ensayo, Respuesta corta,
Verdadero/Falso) and texts (Retroalimentación general).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Mapping

LANGUAGES = ("es", "en")
#: The language of a report read without saying which (tests and older callers).
DEFAULT_LANGUAGE = "en"

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        # per question
        "no_author.gift": "no author: put the question under a $CATEGORY whose last part "
                          "names the author",
        "no_author.xml": "no author: put the question in a category whose last part "
                         "names the author",
        "no_answer.mark": "no expected answer: the teacher judges it",
        "no_answer.item": "{id}: no expected answer: the teacher judges it",
        "accepted_answers": "Respuestas aceptadas: {answers}",
        # notes about the whole file
        "note.author_given": "{n} question(s) without a category took the author given at "
                             "import, \"{author}\"",
        "note.short.auto": "{abierta} short answer(s) → abierta (they do not ask who said it, "
                           "nor do their answers name an author of the bank), {quien} → quien "
                           "({asks} ask who said or wrote it, {names} name an author of the bank)",
        "note.short.forced": "{n} short answer(s) → {type} (chosen at import)",
        "note.detected": "read as {format} from its content, whatever its extension",
        # how to give an author, by channel
        "hint.author.cli": "{n} question(s) have no author: give an author with --author NAME "
                           "(or put them under a category naming the author)",
        "hint.author.web": "{n} question(s) have no author: write an author in the Author field "
                           "and import the file again (or put them under a category naming "
                           "the author)",
        "hint.author.api": "{n} question(s) have no author: send an author field "
                           "(or put them under a category naming the author)",
        # files that are not banks (facilitator.questions.documents)
        "document.refused": "{what}, not a question bank: {how}. Nothing can be imported "
                            "from this file.",
        "document.docx": "This is a Word document (.docx)",
        "document.doc": "This is an old Word document (.doc)",
        "document.odt": "This is a LibreOffice Writer document (.odt)",
        "document.rtf": "This is a Word or WordPad document (.rtf)",
        "document.pdf": "This is a PDF document",
        "document.pptx": "This is a PowerPoint presentation (.pptx)",
        "document.ppt": "This is an old PowerPoint presentation (.ppt)",
        "document.odp": "This is a LibreOffice Impress presentation (.odp)",
        "document.xlsx": "This is an Excel workbook (.xlsx)",
        "document.xls": "This is an old Excel workbook (.xls)",
        "document.ods": "This is a LibreOffice Calc spreadsheet (.ods)",
        "document.image": "This is an image",
        "document.zip": "This is a compressed archive (.zip)",
        "document.binary": "This is not a text file (it holds NUL bytes)",
        "document.how.text": "copy the questions into a spreadsheet, one per row under the "
                             "header id, author, type, text, answer, notes, and save it as "
                             "\"CSV UTF-8 (Comma delimited)\"; or export the questions from "
                             "Moodle as GIFT or Moodle XML",
        "document.how.sheet": "open it in the spreadsheet and save it with File → Save As as "
                              "\"CSV UTF-8 (Comma delimited)\", with the header id, author, "
                              "type, text, answer, notes on its first row",
        "document.how.image": "an image goes inside a question: import a Moodle XML file "
                              "whose question shows it",
        "document.how.zip": "extract it and import the bank it holds (CSV, GIFT or Moodle "
                            "XML)",
        "document.how.binary": "save the bank as \"CSV UTF-8\", GIFT or Moodle XML and "
                               "import that file",
        "cli.format.not-a-bank": "not a question bank",
        # the command line
        "cli.format.csv": "CSV", "cli.format.gift": "Moodle GIFT",
        "cli.format.moodle-xml": "Moodle XML",
        "cli.counts": "{usable}, {unusable} that could not be used, {errors}",
        "cli.usable_question": "{n} usable question|{n} usable questions",
        "cli.question": "{n} question|{n} questions",
        "cli.error": "{n} error|{n} errors",
        "cli.good_question": "{n} good question|{n} good questions",
        "cli.entry": "{n} entry|{n} entries",
        "cli.note": "note: {text}",
        "cli.errors": "Errors:",
        "cli.unusable": "Could not be used:",
        "cli.no_answer": "Without expected answer (the teacher judges them):",
        "cli.nothing_until_fixed": "Nothing can be imported from this file until its errors "
                                   "are fixed.",
        "cli.would_skip": "With --skip-errors, the {good} would be imported and the entries "
                          "with errors left out.",
        "cli.use_skip": "Nothing is imported from a file with errors: fix them, or use "
                        "--skip-errors to keep the {good}.",
        "cli.table": "Questions per author and type:",
        "cli.not_imported.errors": "Nothing imported: the file has errors. Fix them, or use "
                                   "--skip-errors to import the good questions and leave those "
                                   "entries out.",
        "cli.not_imported.empty": "Nothing imported: the file has no question the game can use.",
        "cli.not_imported.no_name": "Nothing imported: the bank needs a name (--name).",
        "cli.not_imported.long_name": "Nothing imported: a bank's name may have at most {max} "
                                      "characters.",
        "cli.not_imported.control_name": "Nothing imported: the bank's name holds an "
                                         "invisible control character; choose another with "
                                         "--name.",
        "cli.not_imported.taken": "Nothing imported: there is already a bank named \"{name}\" "
                                  "({count}). Use --name to choose another name, or --replace "
                                  "to replace its questions.",
        "cli.imported": "Imported into bank \"{name}\" (id {id}): {usable} imported.",
        "cli.replaced": "Replaced the questions of bank \"{name}\" (id {id}): {usable} imported.",
        "cli.imported_unusable": "{count} could not be used (listed above with the reason).",
        "cli.imported_errors": "{count} with errors left out (listed above).",
        # kinds of Moodle question the game does not use
        "kind.multichoice": "multiple-choice", "kind.numerical": "numerical",
        "kind.match": "matching", "kind.multianswer": "cloze (embedded answers)",
        "kind.calculated": "calculated", "kind.calculatedmulti": "calculated multiple-choice",
        "kind.randomsamatch": "random short-answer matching", "kind.random": "random",
        "kind.dragdrop": "drag-and-drop", "kind.gapselect": "select-missing-words",
        "unused.kind": "{label} questions are not used by the game",
        "unused.other": "\"{kind}\" questions are not used by the game",
        "unused.description": "a description (text without an answer) is not a question the "
                              "game can use",
        "unused.no_credit": "short-answer question has no answer worth any credit",
        # images
        "image.missing": "the image is not in the file ({names}): the question would be "
                         "unanswerable without it",
        "image.refused.size": "line {line}: image \"{name}\" left out: larger than 1 MB",
        "image.refused.type": "line {line}: image \"{name}\" left out: only PNG, JPEG, GIF "
                              "and WebP images are kept (not SVG)",
        "image.refused.base64": "line {line}: image \"{name}\" left out: its base64 data is "
                                "damaged",
        "image.refused.pixels": "line {line}: image \"{name}\" left out: it is {width}×{height} "
                                "pixels, more than a tablet can show (at most {side} pixels a "
                                "side and {megapixels} megapixels in all)",
        "image.refused.damaged": "line {line}: image \"{name}\" left out: its size in pixels "
                                 "cannot be read (the file is damaged)",
        "image.refused.bank_size": "line {line}: image \"{name}\" left out: the images of a "
                                   "bank may take at most 20 MB",
        # Moodle XML
        "xml.declarations": "DOCTYPE and ENTITY declarations are not accepted in a question "
                            "file (they can be used to attack the server)",
        "xml.malformed": "the XML is not well formed: {reason}",
        "xml.not_quiz": "this is not a Moodle XML question file: it starts with <{tag}> "
                        "instead of <quiz>",
        "xml.no_type": "<question> without a type=\"...\" attribute",
        "xml.no_text": "the question has no text (<questiontext> is empty)",
        "xml.fraction": "fraction=\"{value}\" is not a number",
        "xml.tf_no_answers": "true/false question without <answer> elements",
        "xml.tf_value": "true/false answer \"{value}\" is neither true nor false",
        # GIFT
        "gift.title_open": "the title opened with \"::\" is not closed with \"::\"",
        "gift.answers_open": "the answers opened with \"{{\" are not closed with \"}}\"",
        "gift.close_without_open": "a \"}}\" without the \"{{\" that opens the answers "
                                   "(write \\}} for a brace in the text)",
        "gift.two_blocks": "more than one answer block {{...}}; a question has only one "
                           "(write \\{{ and \\}} for braces in the text)",
        "gift.no_text": "the question has no text before its answers",
        "gift.empty_answer": "an empty answer: \"=\" must be followed by an accepted answer",
        "gift.cp1252": "the file is not UTF-8; it was read as Windows-1252",
        # encodings
        "encoding.bad_utf8": "line {line} is not valid UTF-8 although the rest of the file "
                             "is; save the file again as UTF-8",
        "encoding.bad_any": "line {line} has characters that are neither UTF-8 nor "
                            "Windows-1252; save the file again as UTF-8",
        # CSV
        "csv.cp1252": "the file is not UTF-8; it was read as Windows-1252 (the usual encoding "
                      "of spreadsheets on Windows)",
        "csv.too_many": "the file has more than {max} question rows; a bank can hold at most "
                        "that many: split the file",
        "csv.unreadable": "the file cannot be read as CSV: {reason}",
        "csv.empty_file": "the file is empty: it needs a header row ({header}) and one row "
                          "per question",
        "csv.same_column": "columns \"{first}\" and \"{second}\" both mean {column}; keep only "
                           "one of them",
        "csv.no_header": "the first row must be a header naming the columns {header} "
                         "(id and notes are optional)",
        "csv.missing_column": "no \"{column}\" column in the header row (accepted names: "
                              "{names})",
        "csv.ignored_columns": "line {line}: column {names} ignored (not one of {header})|"
                               "line {line}: columns {names} ignored (not one of {header})",
        "csv.too_wide": "this row has {used} cells but the header has {width} columns (is "
                        "there an unquoted separator in the text?)",
        "csv.empty_cell": "\"{column}\" is empty",
        "csv.bad_type": "type \"{value}\" is not one of {types}",
        "csv.open_quote": " (this row runs from line {start} to line {end}: is a quote (\") "
                          "left open?)",
        # every format
        "load.unknown_format": "cannot tell the format of this file: name it .csv "
                               "(spreadsheet), .gift or .txt (Moodle GIFT) or .xml (Moodle XML)",
        "load.unreadable": "cannot read the file: {reason}",
        "load.same_id": "id \"{id}\" is already used on line {line}",
        "load.same_questions": "the questions on lines {lines} have the same author, type and "
                               "text ({author}, {type}: \"{text}\"): all are kept, so a game "
                               "may ask that question more than once; delete the copies you "
                               "do not want",
        "load.control": "{field} holds an invisible control character ({code}) that a bank "
                        "cannot keep: remove it (it usually comes from copying out of another "
                        "program)",
        "field.id": "the id", "field.author": "the author", "field.text": "the text",
        "field.answer": "the answer", "field.notes": "the notes",
        "type.vf": "True or False", "type.quien": "Who said it", "type.abierta": "Open question",
        "load.spellings": "authors {listed} differ only in case, accents or spacing: the game "
                          "counts them as different authors",
        "load.spelling": "\"{author}\" (line {line})",
        "load.and": " and ",
        # the summary
        "summary.author": "author",
        "summary.gap": "{author} has no {types} question: choosing it in a game will be refused",
        "summary.or": " or ",
        # export
        "export.no_bank": "There is no bank named \"{bank}\" (nor with that id). The banks are:",
        "export.bank_line": "{id}: {name} ({count})",
        "export.cannot_write": "Cannot write {file}: {reason}",
        "export.done": "Exported bank \"{name}\" ({count}) to {file}.",
        # the import preview of the console
        "preview.unusable_reason": "{reason}",
    },
    "es": {
        "no_author.gift": "sin autor: pongan la pregunta bajo un $CATEGORY cuya última parte "
                          "sea el autor",
        "no_author.xml": "sin autor: pongan la pregunta en una categoría cuya última parte "
                         "sea el autor",
        "no_answer.mark": "sin respuesta esperada: la juzga el docente",
        "no_answer.item": "{id}: sin respuesta esperada: la juzga el docente",
        "accepted_answers": "Respuestas aceptadas: {answers}",
        "note.author_given": "{n} pregunta(s) sin categoría tomaron el autor dado al importar, "
                             "«{author}»",
        "note.short.auto": "{abierta} respuesta(s) corta(s) → abierta (no preguntan quién lo "
                           "dijo ni su respuesta nombra un autor del banco), {quien} → quien "
                           "({asks} preguntan quién lo dijo o escribió, {names} nombran un "
                           "autor del banco)",
        "note.short.forced": "{n} respuesta(s) corta(s) → {type} (elegido al importar)",
        "note.detected": "leído como {format} por su contenido, sea cual sea su extensión",
        "hint.author.cli": "{n} pregunta(s) sin autor: den un autor con --author NOMBRE "
                           "(o pónganlas bajo una categoría con el nombre del autor)",
        "hint.author.web": "{n} pregunta(s) sin autor: escriban un autor en el campo Autor e "
                           "importen el archivo otra vez (o pónganlas bajo una categoría con "
                           "el nombre del autor)",
        "hint.author.api": "{n} pregunta(s) sin autor: envíen un campo author "
                           "(o pónganlas bajo una categoría con el nombre del autor)",
        "document.refused": "{what}, no un banco de preguntas: {how}. De este archivo no se "
                            "puede importar nada.",
        "document.docx": "Es un documento de Word (.docx)",
        "document.doc": "Es un documento de Word antiguo (.doc)",
        "document.odt": "Es un documento de LibreOffice Writer (.odt)",
        "document.rtf": "Es un documento de Word o WordPad (.rtf)",
        "document.pdf": "Es un documento PDF",
        "document.pptx": "Es una presentación de PowerPoint (.pptx)",
        "document.ppt": "Es una presentación de PowerPoint antigua (.ppt)",
        "document.odp": "Es una presentación de LibreOffice Impress (.odp)",
        "document.xlsx": "Es un libro de Excel (.xlsx)",
        "document.xls": "Es un libro de Excel antiguo (.xls)",
        "document.ods": "Es una hoja de cálculo de LibreOffice Calc (.ods)",
        "document.image": "Es una imagen",
        "document.zip": "Es un archivo comprimido (.zip)",
        "document.binary": "No es un archivo de texto (tiene bytes NUL)",
        "document.how.text": "copien las preguntas a una hoja de cálculo, una por fila bajo la "
                             "cabecera id, author, type, text, answer, notes, y guárdenla como "
                             "«CSV UTF-8 (delimitado por comas)»; o exporten las preguntas de "
                             "Moodle en formato GIFT o XML de Moodle",
        "document.how.sheet": "ábranlo en la hoja de cálculo y guárdenlo con Archivo → Guardar "
                              "como en formato «CSV UTF-8 (delimitado por comas)», con la "
                              "cabecera id, author, type, text, answer, notes en la primera fila",
        "document.how.image": "una imagen va dentro de una pregunta: importen un archivo XML "
                              "de Moodle cuya pregunta la muestre",
        "document.how.zip": "descompriman el archivo e importen el banco que contiene (CSV, "
                            "GIFT o XML de Moodle)",
        "document.how.binary": "guarden el banco como «CSV UTF-8», GIFT o XML de Moodle e "
                               "importen ese archivo",
        "cli.format.not-a-bank": "no es un banco de preguntas",
        "cli.format.csv": "CSV", "cli.format.gift": "GIFT de Moodle",
        "cli.format.moodle-xml": "XML de Moodle",
        "cli.counts": "{usable}, {unusable} que no se pueden usar, {errors}",
        "cli.usable_question": "{n} pregunta utilizable|{n} preguntas utilizables",
        "cli.question": "{n} pregunta|{n} preguntas",
        "cli.error": "{n} error|{n} errores",
        "cli.good_question": "{n} pregunta buena|{n} preguntas buenas",
        "cli.entry": "{n} entrada|{n} entradas",
        "cli.note": "nota: {text}",
        "cli.errors": "Errores:",
        "cli.unusable": "No se pueden usar:",
        "cli.no_answer": "Sin respuesta esperada (las juzga el docente):",
        "cli.nothing_until_fixed": "No se puede importar nada de este archivo hasta corregir "
                                   "sus errores.",
        "cli.would_skip": "Con --skip-errors se importarían {good} y se dejarían fuera las "
                          "entradas con errores.",
        "cli.use_skip": "De un archivo con errores no se importa nada: corríjanlos, o usen "
                        "--skip-errors para quedarse con {good}.",
        "cli.table": "Preguntas por autor y tipo:",
        "cli.not_imported.errors": "No se ha importado nada: el archivo tiene errores. "
                                   "Corríjanlos, o usen --skip-errors para importar las "
                                   "preguntas buenas y dejar fuera esas entradas.",
        "cli.not_imported.empty": "No se ha importado nada: el archivo no tiene ninguna "
                                  "pregunta que el juego pueda usar.",
        "cli.not_imported.no_name": "No se ha importado nada: el banco necesita un nombre "
                                    "(--name).",
        "cli.not_imported.long_name": "No se ha importado nada: el nombre de un banco tiene "
                                      "como mucho {max} caracteres.",
        "cli.not_imported.control_name": "No se ha importado nada: el nombre del banco "
                                         "tiene un carácter de control invisible; elijan "
                                         "otro con --name.",
        "cli.not_imported.taken": "No se ha importado nada: ya hay un banco llamado «{name}» "
                                  "({count}). Usen --name para elegir otro nombre, o "
                                  "--replace para sustituir sus preguntas.",
        "cli.imported": "Importado en el banco «{name}» (id {id}): {usable} importadas.",
        "cli.replaced": "Sustituidas las preguntas del banco «{name}» (id {id}): "
                        "{usable} importadas.",
        "cli.imported_unusable": "{count} no se pueden usar (arriba, con el motivo).",
        "cli.imported_errors": "{count} con errores se han dejado fuera (arriba).",
        "kind.multichoice": "Opción múltiple", "kind.numerical": "Numérica",
        "kind.match": "Emparejamiento", "kind.multianswer": "Respuestas anidadas (Cloze)",
        "kind.calculated": "Calculada", "kind.calculatedmulti": "Calculada opción múltiple",
        "kind.randomsamatch": "Emparejamiento aleatorio de respuestas cortas",
        "kind.random": "Aleatoria", "kind.dragdrop": "Arrastrar y soltar",
        "kind.gapselect": "Seleccionar palabras faltantes",
        "unused.kind": "el juego no usa preguntas de tipo {label}",
        "unused.other": "el juego no usa preguntas de tipo «{kind}»",
        "unused.description": "una Descripción (texto sin respuesta) no es una pregunta que "
                              "el juego pueda usar",
        "unused.no_credit": "pregunta de Respuesta corta sin ninguna respuesta que puntúe",
        "image.missing": "la imagen no está en el archivo ({names}): sin ella no se puede "
                         "responder la pregunta",
        "image.refused.size": "línea {line}: imagen «{name}» descartada: pasa de 1 MB",
        "image.refused.type": "línea {line}: imagen «{name}» descartada: solo se guardan "
                              "imágenes PNG, JPEG, GIF y WebP (no SVG)",
        "image.refused.base64": "línea {line}: imagen «{name}» descartada: sus datos base64 "
                                "están dañados",
        "image.refused.pixels": "línea {line}: imagen «{name}» descartada: mide {width}×{height} "
                                "píxeles, más de lo que una tableta puede mostrar (como mucho "
                                "{side} píxeles por lado y {megapixels} megapíxeles en total)",
        "image.refused.damaged": "línea {line}: imagen «{name}» descartada: no se puede leer su "
                                 "tamaño en píxeles (el archivo está dañado)",
        "image.refused.bank_size": "línea {line}: imagen «{name}» descartada: las imágenes de "
                                   "un banco ocupan como mucho 20 MB",
        "xml.declarations": "no se aceptan declaraciones DOCTYPE ni ENTITY en un archivo de "
                            "preguntas (sirven para atacar el servidor)",
        "xml.malformed": "el XML está mal formado: {reason}",
        "xml.not_quiz": "esto no es un archivo de preguntas XML de Moodle: empieza por "
                        "<{tag}> en vez de <quiz>",
        "xml.no_type": "<question> sin atributo type=\"...\"",
        "xml.no_text": "la pregunta no tiene texto (<questiontext> está vacío)",
        "xml.fraction": "fraction=\"{value}\" no es un número",
        "xml.tf_no_answers": "pregunta de Verdadero/Falso sin elementos <answer>",
        "xml.tf_value": "la respuesta de Verdadero/Falso «{value}» no es ni verdadero ni falso",
        "gift.title_open": "el título abierto con «::» no se cierra con «::»",
        "gift.answers_open": "las respuestas abiertas con «{{» no se cierran con «}}»",
        "gift.close_without_open": "una «}}» sin la «{{» que abre las respuestas (escriban \\}} "
                                   "para una llave en el texto)",
        "gift.two_blocks": "más de un bloque de respuestas {{...}}; una pregunta tiene solo uno "
                           "(escriban \\{{ y \\}} para las llaves en el texto)",
        "gift.no_text": "la pregunta no tiene texto antes de sus respuestas",
        "gift.empty_answer": "una respuesta vacía: tras «=» va una respuesta aceptada",
        "gift.cp1252": "el archivo no está en UTF-8; se ha leído como Windows-1252",
        "encoding.bad_utf8": "la línea {line} no es UTF-8 válido aunque el resto del archivo "
                             "sí; guarden el archivo otra vez como UTF-8",
        "encoding.bad_any": "la línea {line} tiene caracteres que no son ni UTF-8 ni "
                            "Windows-1252; guarden el archivo otra vez como UTF-8",
        "csv.cp1252": "el archivo no está en UTF-8; se ha leído como Windows-1252 (la "
                      "codificación habitual de las hojas de cálculo en Windows)",
        "csv.too_many": "el archivo tiene más de {max} filas de preguntas; un banco tiene como "
                        "mucho esas: dividan el archivo",
        "csv.unreadable": "el archivo no se puede leer como CSV: {reason}",
        "csv.empty_file": "el archivo está vacío: necesita una fila de cabecera ({header}) y "
                          "una fila por pregunta",
        "csv.same_column": "las columnas «{first}» y «{second}» significan las dos {column}; "
                           "dejen solo una",
        "csv.no_header": "la primera fila debe ser una cabecera con los nombres de las columnas "
                         "{header} (id y notes son opcionales)",
        "csv.missing_column": "falta la columna «{column}» en la cabecera (nombres aceptados: "
                              "{names})",
        "csv.ignored_columns": "línea {line}: columna {names} ignorada (no es ninguna de "
                               "{header})|línea {line}: columnas {names} ignoradas (no son "
                               "ninguna de {header})",
        "csv.too_wide": "esta fila tiene {used} celdas pero la cabecera tiene {width} columnas "
                        "(¿hay un separador sin comillas en el texto?)",
        "csv.empty_cell": "«{column}» está vacío",
        "csv.bad_type": "el tipo «{value}» no es ninguno de {types}",
        "csv.open_quote": " (esta fila va de la línea {start} a la {end}: ¿se ha quedado "
                          "abierta una comilla (\")?)",
        "load.unknown_format": "no se sabe el formato de este archivo: llámenlo .csv (hoja de "
                               "cálculo), .gift o .txt (GIFT de Moodle) o .xml (XML de Moodle)",
        "load.unreadable": "no se puede leer el archivo: {reason}",
        "load.same_id": "el id «{id}» ya se usa en la línea {line}",
        "load.same_questions": "las preguntas de las líneas {lines} tienen el mismo autor, tipo "
                               "y texto ({author}, {type}: «{text}»): se guardan todas, así que "
                               "una partida puede hacer esa pregunta más de una vez; borren las "
                               "copias que sobren",
        "load.control": "{field} tiene un carácter de control invisible ({code}) que un banco "
                        "no puede guardar: bórrenlo (suele venir de copiar desde otro programa)",
        "field.id": "el id", "field.author": "el autor", "field.text": "el texto",
        "field.answer": "la respuesta", "field.notes": "las notas",
        "type.vf": "Verdadero o Falso", "type.quien": "Quién lo dijo",
        "type.abierta": "Pregunta abierta",
        "load.spellings": "los autores {listed} solo se distinguen en mayúsculas, tildes o "
                          "espacios: el juego los cuenta como autores distintos",
        "load.spelling": "«{author}» (línea {line})",
        "load.and": " y ",
        "summary.author": "autor",
        "summary.gap": "{author} no tiene preguntas {types}: elegirlo en una partida se "
                       "rechazará",
        "summary.or": " ni ",
        "export.no_bank": "No hay ningún banco llamado «{bank}» (ni con ese id). Los bancos "
                          "son:",
        "export.bank_line": "{id}: {name} ({count})",
        "export.cannot_write": "No se puede escribir {file}: {reason}",
        "export.done": "Exportado el banco «{name}» ({count}) a {file}.",
        "preview.unusable_reason": "{reason}",
    },
}


# A language that overrides the one asked for: see :func:`language_forced`.
_FORCED: ContextVar[str | None] = ContextVar("forced_language", default=None)


@contextmanager
def language_forced(lang: str | None) -> Iterator[None]:
    """Every message made inside is in ``lang`` (None: as asked), whatever language
    the caller passed: the JSON API keeps its texts in English unless asked."""
    if lang and lang not in LANGUAGES:
        lang = lang.split("-")[0]
    token = _FORCED.set(lang if lang in LANGUAGES else None)
    try:
        yield
    finally:
        _FORCED.reset(token)


def message(lang: str | None, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang`` (English when unknown), placeholders filled.

    A text with ``|`` is "singular|plural", chosen by the ``n`` parameter.

    >>> message("es", "cli.question", n=1), message("en", "cli.question", n=3)
    ('1 pregunta', '3 questions')
    """
    lang = _FORCED.get() or lang
    if lang and lang not in MESSAGES:
        lang = lang.split("-")[0]           # es-ES reads the Spanish messages
    table = MESSAGES.get(lang or DEFAULT_LANGUAGE, MESSAGES[DEFAULT_LANGUAGE])
    text = table.get(key) or MESSAGES[DEFAULT_LANGUAGE].get(key, key)
    if "|" in text:
        singular, plural = text.split("|", 1)
        text = singular if params.get("n") == 1 else plural
    return text.format(**params)


def cli_language(requested: str | None = None,
                 environ: Mapping[str, str] | None = None) -> str:
    """The language of the command line: ``--lang``, else Spanish when ``LANG``
    starts with "es", else English."""
    if requested in LANGUAGES:
        return requested
    lang = (os.environ if environ is None else environ).get("LANG", "")
    return "es" if lang.lower().startswith("es") else "en"
