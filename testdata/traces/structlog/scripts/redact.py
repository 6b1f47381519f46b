import structlog


def drop_password(logger, method_name, event_dict):
    event_dict.pop("password", None)


structlog.configure(
    processors=[
        drop_password,
        structlog.processors.add_log_level,
        structlog.processors.JSONRenderer(),
    ]
)

log = structlog.get_logger()
log.info("login", user="alice", password="hunter2")
