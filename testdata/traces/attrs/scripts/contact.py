from attrs import define, field, validators

EMAIL_RE = r"[^@]+@[^@]+\.[a-z]+"


@define
class Contact:
    name: str
    email: str = field(validator=validators.matches_re(EMAIL_RE))


c = Contact("Carol", "carol@example.com")
c.email = "carol at example dot com"
