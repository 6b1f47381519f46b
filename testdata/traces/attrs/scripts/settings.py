import attr


@attr.s(auto_attribs=True)
class Settings:
    workers: int = attr.ib(converter=int)
    timeout: float = attr.ib(converter=float, default=30.0)


raw = {"workers": "four", "timeout": "10"}
settings = Settings(**raw)
print(settings)
