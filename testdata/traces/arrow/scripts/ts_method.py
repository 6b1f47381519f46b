import arrow

now = arrow.utcnow()
expires_at = now.timestamp + 3600
print(expires_at)
