from typing import Optional
from attrs import define


@define
class User:
    id: int
    email: Optional[str] = None
    name: str


print(User(1, "a@example.com", "alice"))
