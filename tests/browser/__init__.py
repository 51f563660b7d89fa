"""Browser tests (a package, so its conftest never collides with another folder's)."""
