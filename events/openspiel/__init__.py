"""The events and configuration of games played through OpenSpiel."""
