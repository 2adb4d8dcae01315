"""The HTTP surface: the Starlette app, the page and its texts, the security
headers, the origins and addresses every request is checked against."""
