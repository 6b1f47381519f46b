from jinja2 import Environment


def money(value, currency):
    return f"{value:,.2f} {currency}"


env = Environment()
env.filters["money"] = money
print(env.from_string("Balance: {{ balance|money }}").render(balance=1234.5))
