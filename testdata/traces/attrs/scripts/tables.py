from attrs import define, field


@define(auto_attribs=True)
class Table:
    name: str
    columns = field(factory=list)
    primary_key: str = "id"


print(Table("users"))
