import arrow

utc = arrow.utcnow()
for tz in ["Europe/Berlin", "US/Pacifc"]:
    print(tz, utc.to(tz).format("YYYY-MM-DD HH:mm"))
