// A custom function that needs the network: it has none of its own and goes through ctx.http,
// the built-in http_request with its guards. Allow the domain in functions.http.allowed_domains
// (HTTP_ALLOWED_DOMAINS=api.open-meteo.com) or the call fails with a clear "blocked" error.
export default {
  name: 'current_weather',
  description: 'Current temperature and wind at a latitude/longitude (open-meteo.com).',
  parameters: {
    type: 'object',
    properties: {
      latitude: { type: 'number', description: 'degrees north', minimum: -90, maximum: 90 },
      longitude: { type: 'number', description: 'degrees east', minimum: -180, maximum: 180 },
    },
    required: ['latitude', 'longitude'],
  },
  async execute({ latitude, longitude }, ctx) {
    const url = `https://api.open-meteo.com/v1/forecast?latitude=${latitude}&longitude=${longitude}&current=temperature_2m,wind_speed_10m`;
    const response = await ctx.http({ method: 'GET', url, timeout: 5 });
    if (response.status !== 200) throw new Error(`open-meteo answered ${response.status}`);
    const { temperature_2m, wind_speed_10m } = response.body.current;
    return {
      message: `${temperature_2m} °C, wind ${wind_speed_10m} km/h`,
      data: { temperature_c: temperature_2m, wind_kmh: wind_speed_10m },
    };
  },
};
