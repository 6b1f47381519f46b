import structlog

structlog.configure(
    processors=[
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso"),
        structlog.processors.JSONRenderer(),
        structlog.dev.ConsoleRenderer(),
    ]
)

structlog.get_logger().warning("disk almost full", free_mb=120)
