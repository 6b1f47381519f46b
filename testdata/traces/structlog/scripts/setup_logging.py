import logging

import structlog


def configure(level="INFO"):
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        processors=[structlog.processors.add_log_level, structlog.dev.ConsoleRenderer()],
    )


configure()
structlog.get_logger().info("ready")
