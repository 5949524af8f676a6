import Geofencing
