import structlog


def run_job(log_path):
    with open(log_path, "w") as fh:
        structlog.configure(logger_factory=structlog.PrintLoggerFactory(fh))
        log = structlog.get_logger()
        log.info("job started")
    return log


log = run_job("job.log")
log.info("job finished")
