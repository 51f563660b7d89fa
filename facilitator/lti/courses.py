"""A course becomes a class: made at its first launch, its students brought in from the
launches and from the platform's roster (Names and Role Provisioning), refreshed at
each teacher's launch, nobody listed twice.
"""
from __future__ import annotations

import logging

from pylti1p3.exception import LtiException
from requests import RequestException

from ..classes.roster import check_student
from ..store import classes as class_store
from ..store import lti as lti_store
from .tool import CLAIM, Launch, learns, teaches

log = logging.getLogger("facilitator.lti")

#: The class name of a course that sends no title.
UNTITLED = "Curso"


def course_of_launch(database, launch: Launch) -> dict:
    """The course the launch comes from, its class made at its first launch; a teacher's
    launch keeps the addresses of its roster and gradebook services."""
    platform_id = launch.platform["id"]
    context = launch.context_id or f"link:{launch.resource_link_id}"
    course = lti_store.find_course(database, platform_id, launch.deployment_id, context)
    if course is None:
        name = launch.context_title or UNTITLED
        try:
            class_id = class_store.create_class(database, name)
        except class_store.ClassError:
            class_id = class_store.create_class(database, UNTITLED)
        course = lti_store.link_course(database, platform_id, launch.deployment_id, context,
                                       class_id, name)
    if launch.teacher and launch.services:
        course = lti_store.update_course(database, course["id"],
                                         services={**course["services"], **launch.services})
    return course


def _entry(name: object, email: object, id_number: object):
    """A platform's user as a student of the list, checked as a pasted list's are (an
    e-mail or ID number that does not pass is left out; without a usable name, the
    e-mail names them), or None when nothing usable names them."""
    email = email if isinstance(email, str) else ""
    id_number = id_number if isinstance(id_number, str) else ""
    for candidate in (name, email):
        for extra in ((email, id_number), ("", id_number), ("", "")):
            try:
                return check_student(candidate, *extra)
            except ValueError:
                continue
    return None


def enrol_launch(database, course: dict, launch: Launch) -> int | None:
    """The student of the class the launching user is (added to it the first time);
    None for one who is not a student of the course, or whom nothing names."""
    if not launch.student or not launch.sub:
        return None
    lis = launch.message_launch.get_launch_data().get(CLAIM + "lis") \
        if launch.message_launch is not None else None
    id_number = lis.get("person_sourcedid", "") if isinstance(lis, dict) else ""
    entry = _entry(launch.name, launch.email, id_number)
    if entry is None:
        return None
    return lti_store.merge_people(database, course["id"], [(launch.sub, entry)]).get(launch.sub)


def read_roster(launch: Launch) -> list[dict]:
    """The course's members as its roster service gives them (every page), or [] when
    the launch offers none."""
    message = launch.message_launch
    if message is None or not message.has_nrps():
        return []
    return message.get_nrps().get_members()


def refresh_roster(database, course: dict, launch: Launch) -> int:
    """Bring the course's active students from the roster service into its class (those
    the roster says are no longer active are marked as having left); returns how many it
    listed (0 when the platform offers no roster or did not answer:
    the launch goes on without it)."""
    try:
        members = read_roster(launch)
    except (LtiException, RequestException, ValueError, KeyError, TypeError) as error:
        log.warning("LTI roster of course %s not read: %s", course["id"], error)
        return 0
    people, gone = [], []
    for member in members:
        if not isinstance(member, dict):
            continue
        roles = member.get("roles") if isinstance(member.get("roles"), list) else []
        sub = member.get("user_id")
        if teaches(roles) or not learns(roles) or not isinstance(sub, str) or not sub \
                or len(sub) > lti_store.MAX_ID:
            continue
        if member.get("status", "Active") != "Active":
            gone.append(sub)           # unenrolled or suspended: they left the class
            continue
        name = member.get("name") or " ".join(
            filter(None, (member.get("given_name"), member.get("family_name"))))
        entry = _entry(name, member.get("email"), member.get("lis_person_sourcedid"))
        if entry is not None:
            people.append((sub, entry))
    lti_store.set_left(database, course["id"], gone)
    return len(lti_store.merge_people(database, course["id"], people))
