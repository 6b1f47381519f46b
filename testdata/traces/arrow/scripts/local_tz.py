import arrow
from dateutil import tz

start = arrow.get("2023-05-01 08:00", "YYYY-MM-DD HH:mm", tzinfo=tz.tzlocal)
print(start)
