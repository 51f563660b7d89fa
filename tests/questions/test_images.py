"""Issue 14, part 3: images embedded in Moodle XML are kept with the bank and served to the
pages of a game made from it; images the file only names make the question unusable."""
from __future__ import annotations

import base64
import io
import struct
import zlib

import pytest

from facilitator.extensions import database, store
from facilitator.questions import parse_bank
from facilitator.questions.images import MAX_IMAGE_BYTES

ORIGIN = {"Origin": "http://localhost"}


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b""))


def question(name: str, text: str, files: str = "") -> str:
    return (f'<question type="truefalse"><name><text>{name}</text></name>'
            f'<questiontext format="html"><text><![CDATA[{text}]]></text>{files}</questiontext>'
            '<answer fraction="100"><text>true</text></answer>'
            '<answer fraction="0"><text>false</text></answer></question>')


def png_file(name: str = "switch.png", data: bytes | None = None) -> str:
    encoded = base64.b64encode(data if data is not None else tiny_png()).decode()
    return f'<file name="{name}" path="/" encoding="base64">{encoded}</file>'


def quiz(*questions: str) -> bytes:
    return ('<?xml version="1.0"?><quiz><question type="category"><category>'
            '<text>$course$/top/Kant</text></category></question>'
            + "".join(questions) + "</quiz>").encode()


IMG = '<p>¿Está encendido?<img src="@@PLUGINFILE@@/switch.png" alt="un interruptor"></p>'


def test_an_embedded_image_is_kept_with_the_question():
    report = parse_bank(quiz(question("q1", IMG, png_file())), "b.xml")
    assert report.ok and len(report.questions) == 1
    (name,) = report.images
    assert report.images[name] == ("image/png", tiny_png())
    assert f'src="image:{name}"' in report.questions[0].text_html
    assert 'alt="un interruptor"' in report.questions[0].text_html


def test_an_image_the_file_only_names_makes_the_question_unusable():
    report = parse_bank(quiz(question("q1", '<p>Mira <img src="switch.jpg" alt="x"></p>')),
                        "b.xml", lang="es")
    assert report.ok and report.questions == []
    (issue,) = report.unusable
    assert issue.reason == "image_missing"
    assert "la imagen no está en el archivo (switch.jpg)" in issue.message


def test_a_remote_image_makes_the_question_unusable():
    report = parse_bank(quiz(question("q1", '<p>Mira <img src="https://e.example/a.png"></p>')),
                        "b.xml")
    assert [issue.reason for issue in report.unusable] == ["image_missing"]


def test_two_questions_that_differ_only_by_their_image_are_not_duplicates():
    other = tiny_png()[:-12] + b"\x00\x00\x00\x00IEND\xaeB`\x82" + b"\x00"
    report = parse_bank(quiz(question("q1", IMG, png_file()),
                             question("q2", IMG, png_file(data=other))), "b.xml")
    assert report.ok, report.errors
    assert len(report.questions) == 2 and len(report.images) == 2


@pytest.mark.parametrize("data", [
    b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    b"\x89PNG\r\n\x1a\n" + b"\x00" * MAX_IMAGE_BYTES,
])
def test_svg_and_oversized_images_are_refused(data):
    report = parse_bank(quiz(question("q1", IMG, png_file(data=data))), "b.xml")
    assert report.images == {} and report.questions == []
    assert [issue.reason for issue in report.unusable] == ["image_missing"]
    assert any("switch.png" in note for note in report.notes)


def test_a_game_made_from_the_bank_serves_the_image_to_its_pages(gm):
    from facilitator.store.banks import find_bank
    from facilitator.store.models import GameRow
    body = quiz(question("q1", IMG, png_file()), question("q2", "Kant es alemán.")) 
    response = gm.post("/console/banks/import", headers=ORIGIN,
                           content_type="multipart/form-data",
                           data={"file": (io.BytesIO(body), "imagenes.xml"), "target": "new",
                                 "name": "Con imagen", "author": "Kant"})
    assert response.status_code == 200, response.get_data(as_text=True)
    bank_id = find_bank(database, "Con imagen")["id"]
    teams = [{"name": name, "members": 4} for name in ("A", "B", "C", "D")]
    response = gm.post("/console/games", json={"name": "P", "settings": {"teams": teams},
                                                   "bank_id": bank_id})
    assert response.status_code == 200, response.get_json()
    game_id = response.get_json()["game_id"]
    with database.session() as session:
        row = session.get(GameRow, game_id)
        public_id, questions = row.public_id, row.content
    html = next(q["text_html"] for q in questions if q.get("text_html"))
    assert f'src="/g/{public_id}/img/' in html
    url = html.split('src="', 1)[1].split('"', 1)[0]

    anonymous = gm.application.test_client()       # a tablet: no GM login
    image = anonymous.get(url)
    assert image.status_code == 200 and image.data == tiny_png()
    assert image.headers["Content-Type"] == "image/png"
    assert image.headers["X-Content-Type-Options"] == "nosniff"
    assert anonymous.get(url.replace(public_id, "0" * 32)).status_code == 404

    # The formatted text: a team gets it only once the question is asked.
    qid = next(q["id"] for q in questions if q.get("text_html"))
    ref = [q["id"] for q in questions].index(qid) + 1
    assert anonymous.get(f"/g/{game_id}/rich/{ref}").status_code == 404

    def play(change):
        change.play({"do": "declare", "mode": "normal"})
        change.play({"do": "choose", "author": "Kant", "type": "vf"})
        change.play({"do": "question", "id": qid})
    store.transact(game_id, "gm", play)
    rich = anonymous.get(f"/g/{game_id}/rich/{ref}").get_json()
    assert rich["html"] == html and "answer_html" not in rich

    # A bank whose images a game in progress shows is not deleted.
    response = gm.post(f"/console/banks/{bank_id}/delete", headers=ORIGIN)
    assert response.status_code == 409


# -- issue 34: the pixel size, read from the header -------------------------------------

def jpeg(width: int, height: int) -> bytes:
    """A baseline JPEG's markers up to its frame header (SOI, APP0 JFIF, DQT, SOF0), then EOI."""
    app0 = b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    dqt = b"\x00" + bytes(range(1, 65))
    sof = struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00"
    segment = lambda marker, body: b"\xff" + marker + struct.pack(">H", len(body) + 2) + body  # noqa: E731
    return (b"\xff\xd8" + segment(b"\xe0", app0) + segment(b"\xdb", dqt)
            + segment(b"\xc0", sof) + b"\xff\xd9")


def gif(width: int, height: int) -> bytes:
    """A GIF89a: its logical screen, one palette, a 1×1 image, the trailer."""
    return (b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
            + b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


def webp(chunk: bytes, body: bytes) -> bytes:
    data = b"WEBP" + chunk + struct.pack("<I", len(body)) + body
    return b"RIFF" + struct.pack("<I", len(data)) + data


def webp_lossy(width: int, height: int) -> bytes:
    return webp(b"VP8 ", b"\x30\x01\x00\x9d\x01\x2a" + struct.pack("<HH", width, height) + b"\x00" * 8)


def webp_lossless(width: int, height: int) -> bytes:
    bits = (width - 1) | ((height - 1) << 14)
    return webp(b"VP8L", b"\x2f" + bits.to_bytes(4, "little") + b"\x00" * 8)


def webp_extended(width: int, height: int) -> bytes:
    return webp(b"VP8X", b"\x00\x00\x00\x00" + (width - 1).to_bytes(3, "little")
                + (height - 1).to_bytes(3, "little"))


@pytest.mark.parametrize("make, mime", [
    (lambda w, h: __import__("documents").png(w, h), "image/png"), (jpeg, "image/jpeg"),
    (gif, "image/gif"), (webp_lossy, "image/webp"), (webp_lossless, "image/webp"),
    (webp_extended, "image/webp")])
def test_the_pixel_size_is_read_from_each_format_s_header(make, mime):
    from facilitator.questions.images import image_size, sniff
    for size in ((1, 1), (640, 480), (4096, 3000), (12000, 9)):
        data = make(*size)
        assert sniff(data) == mime and image_size(mime, data) == size


@pytest.mark.parametrize("make, name", [
    (lambda: __import__("documents").png(40000, 40000), "40000×40000"),
    (lambda: jpeg(5000, 100), "5000×100"), (lambda: gif(4000, 4001), "4000×4001"),
    (lambda: webp_extended(16383, 16383), "16383×16383")])
def test_an_image_over_the_limit_is_refused_naming_it_and_its_size(make, name):
    """A 40000×40000 PNG is a few hundred bytes compressed and 1.6 billion pixels (6.4 GB
    unpacked) on a tablet."""
    data = make()
    assert len(data) < MAX_IMAGE_BYTES
    for lang, words in (("en", f'image "switch.png" left out: it is {name} pixels, more than '
                                'a tablet can show (at most 4096 pixels a side and 16 '
                                'megapixels in all)'),
                        ("es", f"imagen «switch.png» descartada: mide {name} píxeles")):
        report = parse_bank(quiz(question("q1", IMG, png_file(data=data))), "b.xml", lang=lang)
        assert report.images == {} and report.questions == []
        assert [issue.reason for issue in report.unusable] == ["image_missing"]
        assert any(words in note for note in report.notes), report.notes


def test_an_image_at_the_limit_is_kept_and_a_damaged_header_is_refused():
    from documents import png
    kept = parse_bank(quiz(question("q1", IMG, png_file(data=png(4096, 3900)))), "b.xml")
    assert kept.ok and len(kept.questions) == 1 and len(kept.images) == 1
    damaged = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDX" + b"\x00" * 20
    report = parse_bank(quiz(question("q1", IMG, png_file(data=damaged))), "b.xml")
    assert report.images == {}
    assert any("its size in pixels cannot be read" in note for note in report.notes)


def test_the_readme_states_the_image_limits():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "4096 pixels a side" in readme and "16 megapixels" in readme
