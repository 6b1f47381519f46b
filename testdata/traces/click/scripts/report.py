import click


@click.command()
@click.option("--month", required=True)
@click.option("--format", "fmt", default="csv")
def report(month, fmt):
    click.echo(f"report for {month} as {fmt}")


def nightly():
    # called from our scheduler
    report(month="2024-05", fmt="pdf")


if __name__ == "__main__":
    nightly()
