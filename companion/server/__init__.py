"""The local web page: Flask app factory, blueprints, event bus and the live session."""
