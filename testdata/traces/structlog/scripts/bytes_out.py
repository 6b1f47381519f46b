import sys

import structlog

structlog.configure(
    processors=[
        structlog.processors.add_log_level,
        structlog.processors.JSONRenderer(),
    ],
    logger_factory=structlog.BytesLoggerFactory(),
)

structlog.get_logger().info("uploaded", size=1024)
