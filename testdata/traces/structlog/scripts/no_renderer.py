import structlog

structlog.configure(
    processors=[
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso"),
    ]
)

structlog.get_logger().info("service started", port=8080)
