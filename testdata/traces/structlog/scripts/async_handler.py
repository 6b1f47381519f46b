import asyncio
import logging

import structlog

logging.basicConfig(level=logging.INFO)
structlog.configure(
    processors=[structlog.stdlib.add_log_level, structlog.stdlib.render_to_log_kwargs],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
)


async def handler():
    log = structlog.get_logger("api")
    await log.ainfo("request", path="/health")


asyncio.run(handler())
