import os
from attrs import define, field, validators


@define
class ServerConfig:
    host: str = field(validator=validators.instance_of(str))
    port: int = field(validator=validators.instance_of(int))
    debug: bool = False


def load_config():
    return ServerConfig(
        host=os.environ.get("APP_HOST", "0.0.0.0"),
        port=os.environ.get("APP_PORT", "8080"),
    )


if __name__ == "__main__":
    cfg = load_config()
    print(cfg)
