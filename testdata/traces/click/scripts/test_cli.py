import click
from click.testing import CliRunner


@click.command()
@click.argument("path")
def count_lines(path):
    with open(path) as fh:
        click.echo(sum(1 for _ in fh))


def test_count_lines():
    runner = CliRunner()
    result = runner.invoke(count_lines, ["data.txt"])
    assert result.exit_code == 0, result.output
    assert result.output == "3\n"


if __name__ == "__main__":
    test_count_lines()
