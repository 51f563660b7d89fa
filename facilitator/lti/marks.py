"""Marks out: the league measures a teacher picked for a course (those moodle.csv
offers) go to the course's gradebook through Assignment and Grade Services.

Each measure is one line item, made once (found again by its tag) and updated after.
A mark waits in the store until the platform takes it; it is sent again only when its
value changes, and one the platform refused or could not be reached for waits, shown on
the class page, for the next sending.
"""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone

from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from requests import RequestException

from ..classes import league, participation
from ..classes.exports import MEASURES, measure_values
from ..classes.summaries import summaries
from ..store import classes as class_store
from ..store import lti as lti_store
from .tool import PlatformSession, ServiceConnector, ToolConf

log = logging.getLogger("facilitator.lti")

#: The tag of a measure's line item (how the facilitator finds its own columns again).
TAG = "facilitator-{measure}"
#: One sending per class at a time, in every process sharing the database (a game's end
#: and the teacher's button may meet): the second waits for the first, then finds nothing
#: left to send. A sending that died holds its claim this long (seconds) at most.
SENDING_CLAIM_SECONDS = 300
#: How long a sending waits for another one of the same class (seconds).
SENDING_WAIT_SECONDS = 60


def queue_marks(database, store, class_id: int) -> int:
    """Work out the course's marks (the class's league and participation now) and keep
    those that changed for sending; returns how many wait (0 for a class of no course)."""
    course = lti_store.course_of_class(database, class_id)
    klass = class_store.get_class(database, class_id)
    if course is None or klass is None:
        return 0
    games = summaries(database, store, class_id)
    values = measure_values(league(games, klass["students"], klass["league_scheme"]),
                            participation(games, klass["students"]))
    people = lti_store.people_of(database, course["id"])
    waiting = 0
    for measure in course["measures"]:
        found = {people[sid]: float(row[measure]) for sid, row in values.items()
                 if sid in people and isinstance(row.get(measure), (int, float))}
        # A mark's maximum: the best in the class (one point when nobody scored more), as
        # the league reads it.
        maximum = max([1.0, *found.values()])
        waiting = lti_store.set_marks(database, course["id"], measure,
                                      [(sub, score, maximum) for sub, score in found.items()])
    return len(lti_store.waiting_marks(database, course["id"])) if course["measures"] else waiting


def _service(database, course: dict, requests_session=None) -> AssignmentsGradesService:
    platform = lti_store.get_platform(database, course["platform_id"])
    ags = course["services"].get("ags")
    if platform is None or not isinstance(ags, dict) or not ags.get("lineitems"):
        raise LtiException("the course's platform offers no gradebook columns to this tool "
                           "(a teacher's launch gives their address)")
    connector = ServiceConnector(ToolConf(database).registration(platform),
                                 requests_session=requests_session or PlatformSession())
    return AssignmentsGradesService(connector, ags)


def _lineitem(database, course: dict, service, measure: str, maximum: float) -> str:
    """The address of the measure's line item, made on the platform the first time."""
    if measure in course["lineitems"]:
        return course["lineitems"][measure]
    made = service.find_or_create_lineitem(
        LineItem().set_tag(TAG.format(measure=measure)).set_label(MEASURES[measure][0])
        .set_score_maximum(maximum).set_resource_id(f"class-{course['class_id']}"))
    url = made.get_id()
    if not url:
        raise LtiException("the platform made the line item without an address")
    course["lineitems"] = {**course["lineitems"], measure: url}
    lti_store.update_course(database, course["id"], lineitems=course["lineitems"])
    return url


def send_marks(database, class_id: int, requests_session=None) -> dict:
    """Send the course's waiting marks: ``{"sent", "waiting", "error"}`` (error: why the
    last one that failed did, "" when none did)."""
    course = lti_store.course_of_class(database, class_id)
    if course is None:
        return {"sent": 0, "waiting": 0, "error": ""}
    waiting = lti_store.waiting_marks(database, course["id"])
    sent, error = 0, ""
    if not waiting:
        return {"sent": 0, "waiting": 0, "error": ""}
    try:
        service = _service(database, course, requests_session)
    except LtiException as failure:
        return {"sent": 0, "waiting": len(waiting), "error": str(failure)}
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    for mark in waiting:
        if mark["measure"] not in MEASURES:
            continue
        try:
            url = _lineitem(database, course, service, mark["measure"], mark["maximum"])
            grade = (Grade().set_score_given(mark["score"]).set_score_maximum(mark["maximum"])
                     .set_timestamp(now).set_activity_progress("Completed")
                     .set_grading_progress("FullyGraded").set_user_id(mark["sub"]))
            service.put_grade(grade, LineItem({"id": url}))
        except (LtiException, RequestException, ValueError, KeyError, TypeError) as failure:
            error = str(failure)[:300] or failure.__class__.__name__
            lti_store.mark_refused(database, mark["id"], error)
            if isinstance(failure, LtiServiceException) and \
                    failure.response.status_code in (404, 410) and mark["measure"] in \
                    course["lineitems"]:
                # The column was deleted on the platform: found or made again next time.
                course["lineitems"] = {k: v for k, v in course["lineitems"].items()
                                       if k != mark["measure"]}
                lti_store.update_course(database, course["id"], lineitems=course["lineitems"])
            log.warning("LTI mark %s of course %s waits: %s", mark["id"], course["id"], error)
            if isinstance(failure, RequestException):
                break              # the platform does not answer: the rest wait too
            continue
        lti_store.mark_sent(database, mark["id"], mark["score"])
        sent += 1
    return {"sent": sent, "waiting": len(lti_store.waiting_marks(database, course["id"])),
            "error": error}


def sync_marks(database, store, class_id: int, requests_session=None) -> dict:
    """Work out the class's marks and send what waits (see send_marks), once another
    sending of the class, here or in another process, has ended."""
    claim = f"sending-class-{class_id}"
    deadline = time.monotonic() + SENDING_WAIT_SECONDS
    while not lti_store.claim_value(database, claim, SENDING_CLAIM_SECONDS):
        if time.monotonic() > deadline:
            course = lti_store.course_of_class(database, class_id)
            waiting = len(lti_store.waiting_marks(database, course["id"])) if course else 0
            return {"sent": 0, "waiting": waiting,
                    "error": "another sending of this class's marks is still going on"}
        time.sleep(0.2)
    try:
        queue_marks(database, store, class_id)
        return send_marks(database, class_id, requests_session)
    finally:
        lti_store.take_value(database, claim)
