import datetime

import click


@click.command()
@click.option("--day", type=click.DateTime(formats=["%Y-%m-%d"]), default=datetime.date.today)
def daily(day):
    click.echo(f"running for {day:%Y-%m-%d}")


if __name__ == "__main__":
    daily()
