"""LTI 1.3 (issue 48): the facilitator as a tool of a learning platform (Moodle, Canvas).

The protocol is pylti1p3next's (the OIDC login, the launch's checks, the roster and
gradebook services); this package gives it the registrations, keys and launch values
the store keeps, and turns a checked launch into a class, a console session or a seat.
"""
