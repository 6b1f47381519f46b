import arrow

d = arrow.get("2 mai 2023", "D MMMM YYYY")
print(d)
