from enum import Enum

from attrs import frozen


@frozen
class Color(Enum):
    RED = "red"
    GREEN = "green"


print(Color("red"))
